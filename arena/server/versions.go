package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// startingSkill is a new version's rating: its bot's active version's (the pinned one, else
// the newest that passed validation), widened (rating.Inherit), or a new bot's.
func (s *Server) startingSkill(ctx context.Context, botID int64) (rating.Skill, error) {
	b, err := s.st.WebBotByID(ctx, botID)
	if err != nil {
		return rating.Skill{}, err
	}
	vs, err := s.st.Versions(ctx, botID) // newest first
	if err != nil {
		return rating.Skill{}, err
	}
	for _, v := range vs {
		if v.Status == store.VersionOK && (b.Pinned == 0 || v.ID == b.Pinned) {
			return rating.Inherit(rating.Skill{Mu: v.Mu, Sigma: v.Sigma}), nil
		}
	}
	return rating.Skill{Mu: rating.DefaultMu, Sigma: rating.DefaultSigma}, nil
}

// pinRequest is the body of POST /api/v1/bots/{id}/pin.
type pinRequest struct {
	// Version is the version number to make active; 0 lets the newest that passed be active.
	Version int `json:"version"`
}

// postPin lets a bot's author pin its active version (the ladder plays it, whatever is
// uploaded after it) or unpin it (version 0).
func (s *Server) postPin(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such bot")
		return
	}
	b, err := s.st.WebBotByID(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if b.UserID != u.ID {
		s.fail(w, r, http.StatusForbidden, "this is another author's bot: only its author chooses its active version")
		return
	}
	var req pinRequest
	if isAPI(r) {
		if err := readJSON(r, &req); err != nil {
			s.answer(w, r, err)
			return
		}
	} else {
		v := strings.TrimPrefix(strings.TrimSpace(r.PostFormValue("version")), "v")
		if req.Version, err = strconv.Atoi(v); err != nil {
			s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("version %q is not a version number (0: the newest that passed)", v))
			return
		}
	}
	if req.Version < 0 {
		s.fail(w, r, http.StatusBadRequest, "version must be a version number, or 0 for the newest that passed")
		return
	}
	_, err = s.st.PinVersion(r.Context(), id, req.Version)
	switch {
	case errors.Is(err, store.ErrNotFound):
		s.fail(w, r, http.StatusNotFound, err.Error())
		return
	case errors.Is(err, store.ErrPin):
		s.fail(w, r, http.StatusConflict, err.Error())
		return
	case err != nil:
		s.internal(w, r, err)
		return
	}
	if isAPI(r) {
		writeJSON(w, http.StatusOK, map[string]any{"bot_id": id, "pinned_version": req.Version})
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/bots/%d", id), http.StatusSeeOther)
}
