package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/botarena/arena/arena/names"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

func (s *Server) apiGames(w http.ResponseWriter, r *http.Request) {
	gs, err := s.games(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": gs})
}

func (s *Server) apiLeaderboard(w http.ResponseWriter, r *http.Request) {
	g := chi.URLParam(r, "game")
	if !knownGame(g) {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("no game %q: GET /api/v1/games lists them", g))
		return
	}
	rows, err := s.leaderboard(r.Context(), g)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	running, err := s.st.LadderMatches(r.Context(), store.MatchFilter{Game: g, Status: store.LadderRunning, Limit: 50})
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": g, "ranked_by": "mu - 3 sigma (OpenSkill Plackett-Luce)", "leaderboard": rows, "running": running})
}

func (s *Server) apiMatch(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	mv, err := s.matchView(r.Context(), r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, mv)
}

// apiMatchLogs answers the logs of the caller's own seats; a match without one is refused.
func (s *Server) apiMatchLogs(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needUser(w, r); !ok {
		return
	}
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	mv, err := s.matchView(r.Context(), r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if len(mv.Mine) == 0 {
		s.fail(w, r, http.StatusForbidden, "none of your bots played this match: authors see only their own bots' logs")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"match_id": id, "logs": mv.Mine})
}

func (s *Server) downloadReplay(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	b, _, err := s.ladderReplay(r, id)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="match-%d.json"`, id))
	_, _ = w.Write(b)
}

func (s *Server) apiBot(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such bot")
		return
	}
	bv, err := s.botView(r.Context(), r, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, bv)
}

func (s *Server) version(w http.ResponseWriter, r *http.Request) (store.Version, bool, bool) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such version")
		return store.Version{}, false, false
	}
	v, err := s.st.VersionByID(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return v, false, false
	}
	u, logged := current(r)
	return v, logged && u.ID == v.Bot.UserID, true
}

func (s *Server) apiVersion(w http.ResponseWriter, r *http.Request) {
	v, mine, ok := s.version(w, r)
	if ok {
		writeJSON(w, http.StatusOK, versionView(v, mine))
	}
}

// apiVersionFiles gives a version's code to its author, and to nobody else.
func (s *Server) apiVersionFiles(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needUser(w, r); !ok {
		return
	}
	v, mine, ok := s.version(w, r)
	if !ok {
		return
	}
	if !mine || v.Dir == "" {
		s.fail(w, r, http.StatusForbidden, "this is not your bot: nobody sees another author's code")
		return
	}
	files, err := versionFiles(v.Dir)
	if !v.Collected.IsZero() || errors.Is(err, fs.ErrNotExist) {
		// Collected, or being collected right now.
		s.fail(w, r, http.StatusGone, "this version's files were collected (it failed, or a newer passing version replaced it): its verdict and matches stay; upload it again to keep its files")
		return
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"version_id": v.ID, "files": files})
}

func (s *Server) apiTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := s.st.Tournaments(r.Context())
	if err != nil {
		s.internal(w, r, err)
		return
	}
	type row struct {
		ID      int64     `json:"id"`
		Name    string    `json:"name"`
		Game    string    `json:"game"`
		Status  string    `json:"status"`
		Created time.Time `json:"created"`
	}
	out := []row{}
	for _, t := range ts {
		out = append(out, row{t.ID, t.Name, t.Game, t.Status, t.Created})
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}

func (s *Server) apiTournament(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such tournament")
		return
	}
	st, err := tournament.Compute(r.Context(), s.st, id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *Server) tournamentReplay(r *http.Request) ([]byte, error) {
	id, ok := idParam(r, "id")
	idx, err := strconv.Atoi(chi.URLParam(r, "idx"))
	if !ok || err != nil {
		return nil, fmt.Errorf("%w: no such match", store.ErrNotFound)
	}
	return s.st.Replay(r.Context(), id, idx)
}

func (s *Server) apiTournamentReplay(w http.ResponseWriter, r *http.Request) {
	b, _, err := s.tournamentView(r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
	Label    string `json:"label"`
	// Days is how long a new token works (at most the server's token life, its default).
	Days int `json:"days,omitempty"`
}

func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, 64<<10))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return bad(http.StatusBadRequest, "the body is not the JSON this call takes (%v): see docs/api.md", err)
	}
	return nil
}

func (s *Server) apiRegister(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := readJSON(r, &c); err != nil {
		s.answer(w, r, err)
		return
	}
	u, err := s.register(r.Context(), strings.TrimSpace(c.Name), c.Password)
	switch {
	case errors.Is(err, errBusy):
		s.busy(w, r, err.Error())
	case errors.Is(err, store.ErrExists):
		s.fail(w, r, http.StatusConflict, err.Error())
	case err != nil:
		s.fail(w, r, http.StatusBadRequest, err.Error())
	default:
		writeJSON(w, http.StatusCreated, u)
	}
}

// apiToken trades a name and password for an API token (rate-limited like the login form).
func (s *Server) apiToken(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := readJSON(r, &c); err != nil {
		s.answer(w, r, err)
		return
	}
	u, err := s.checkPassword(r.Context(), c.Name, c.Password)
	if errors.Is(err, errBusy) {
		s.busy(w, r, err.Error())
		return
	}
	if err != nil {
		s.answer(w, r, loginFailure(err))
		return
	}
	tok, t, err := s.newToken(r.Context(), u, c.Label, c.Days)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"token": tok, "id": t.ID, "expires": t.Expires, "user": u})
}

func (s *Server) apiMe(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	bots, err := s.st.WebBots(r.Context(), "", u.ID)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if bots == nil {
		bots = []store.WebBot{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"user": u, "bots": bots})
}

func (s *Server) apiUpload(w http.ResponseWriter, r *http.Request) {
	u, ok := s.needUser(w, r)
	if !ok {
		return
	}
	game, name, filename, data, err := s.readUpload(w, r)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	v, err := s.accept(r.Context(), u, game, name, filename, data)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusAccepted, versionView(v, true))
}

// postDisable takes a bot off the ladder or puts it back (organisers).
func (s *Server) postDisable(disable bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := s.needOrganiser(w, r); !ok {
			return
		}
		id, ok := idParam(r, "id")
		if !ok {
			s.fail(w, r, http.StatusNotFound, "no such bot")
			return
		}
		if _, err := s.st.WebBotByID(r.Context(), id); err != nil {
			s.internal(w, r, err)
			return
		}
		if err := s.st.SetDisabled(r.Context(), id, disable); err != nil {
			s.internal(w, r, err)
			return
		}
		if isAPI(r) {
			writeJSON(w, http.StatusOK, map[string]any{"bot_id": id, "disabled": disable})
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/bots/%d", id), http.StatusSeeOther)
	}
}

// postReplayMatch plays a ladder match again with its versions and seed (organisers).
func (s *Server) postReplayMatch(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such match")
		return
	}
	m, err := s.st.LadderMatchByID(r.Context(), id)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if m.Kind != store.KindLadder {
		s.fail(w, r, http.StatusBadRequest, "only ladder matches are replayed; a smoke match is replayed by uploading the version again")
		return
	}
	for _, st := range m.Seats {
		if v, err := s.st.VersionByID(r.Context(), st.VersionID); err == nil && !v.Collected.IsZero() {
			s.fail(w, r, http.StatusConflict, fmt.Sprintf("%s v%d's files were collected (a newer passing version replaced it): this match cannot be played again; play its bots' current versions on the ladder", v.Bot.Name, v.N))
			return
		}
	}
	s.lad.Replay(id)
	if isAPI(r) {
		writeJSON(w, http.StatusAccepted, map[string]any{"replaying": id})
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/games/%s", m.Game), http.StatusSeeOther)
}

// postTournament creates a tournament from the current versions of a game's bots and runs it
// in the background (organisers). House bots, played in-process, are not entrants.
func (s *Server) postTournament(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	var req struct {
		Game string `json:"game"`
		Name string `json:"name"`
		Reps int    `json:"reps"`
	}
	if isAPI(r) {
		if err := readJSON(r, &req); err != nil {
			s.answer(w, r, err)
			return
		}
	} else {
		req.Game, req.Name = r.PostFormValue("game"), strings.TrimSpace(r.PostFormValue("name"))
		req.Reps, _ = strconv.Atoi(r.PostFormValue("reps"))
	}
	if !knownGame(req.Game) || !names.Valid(req.Name) {
		s.fail(w, r, http.StatusBadRequest, "give a known game and a tournament name of 1 to 40 letters, digits, '.', '_' or '-'")
		return
	}
	vs, err := s.st.Active(r.Context(), req.Game)
	if err != nil {
		s.internal(w, r, err)
		return
	}
	// Played on the ladder's clock and time per move, as every match this server plays.
	cfg := tournament.Config{Game: req.Game, Params: s.lad.GameParams(req.Game), Reps: max(req.Reps, 1), Seed: uint64(time.Now().UnixNano() >> 1),
		Deadline: s.lad.Deadline, StartTimeout: s.lad.Host.StartTimeout}
	cfg.SetClock(s.lad.Clock)
	var entrants []int64
	for _, v := range vs {
		if v.Bot.House == "" {
			cfg.Entries = append(cfg.Entries, tournament.Entry{Name: fmt.Sprintf("%s-v%d", v.Bot.Name, v.N), Spec: v.Dir, Author: v.Bot.Author, Language: v.Language})
			entrants = append(entrants, v.ID)
		}
	}
	if len(cfg.Entries) < 2 {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%s has %d uploaded bots with a passing version; a tournament needs 2", req.Game, len(cfg.Entries)))
		return
	}
	if err := s.boundTournament(cfg); err != nil {
		s.answer(w, r, err)
		return
	}
	// Pinned before it is created: no collection takes an entrant's files from under it.
	s.lad.Pin(entrants)
	id, err := tournament.Create(r.Context(), s.st, req.Name, cfg)
	if err != nil {
		s.lad.Unpin(entrants)
		s.fail(w, r, http.StatusBadRequest, err.Error())
		return
	}
	s.runTournament(id, req.Name, entrants)
	if isAPI(r) {
		writeJSON(w, http.StatusCreated, map[string]any{"tournament_id": id, "entries": len(cfg.Entries)})
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/tournaments/%d", id), http.StatusSeeOther)
}

func (s *Server) apiLadder(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"running": !s.stopped.Load()})
}

// pausedSetting keeps the organiser's pause in the store, so a restart keeps it.
const pausedSetting = "ladder.paused"

// postLadderSwitch pauses or resumes ladder matches (organisers); validation goes on.
func (s *Server) postLadderSwitch(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	run := r.PostFormValue("running") == "true" || r.URL.Query().Get("running") == "true"
	if err := s.st.SetSetting(r.Context(), pausedSetting, strconv.FormatBool(!run)); err != nil {
		s.internal(w, r, err)
		return
	}
	s.stopped.Store(!run)
	if isAPI(r) {
		writeJSON(w, http.StatusOK, map[string]any{"running": run})
		return
	}
	http.Redirect(w, r, "/organiser", http.StatusSeeOther)
}
