package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/replay"
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

// Comparison is two versions of one bot side by side (GET /api/v1/bots/{id}/compare?a=N&b=M).
type Comparison struct {
	A, B int `json:"-"`
	// HeadToHead counts the matches where both played: A's wins, draws and losses.
	HeadToHead Tally `json:"head_to_head"`
	// Opponents is each version's results per opposing bot.
	Opponents []OpponentRow `json:"opponents"`
	// SameSeed lists pairs of matches, one of each version, against the same opponent
	// versions with the same seed, and the first step where the two versions answered
	// differently (0: never, in the steps both matches have).
	SameSeed []SameSeedPair `json:"same_seed"`
}

// Tally is wins, draws and losses.
type Tally struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

func (t *Tally) add(result string) {
	switch result {
	case "win":
		t.Wins++
	case "draw":
		t.Draws++
	case "loss":
		t.Losses++
	}
}

// OpponentRow is one opposing bot's results against each version.
type OpponentRow struct {
	Opponent string `json:"opponent"`
	A        Tally  `json:"a"`
	B        Tally  `json:"b"`
}

// SameSeedPair is a match of each version with the same seed and opponents.
type SameSeedPair struct {
	Seed      uint64 `json:"seed,string"`
	MatchA    int64  `json:"match_a"`
	MatchB    int64  `json:"match_b"`
	FirstDiff int    `json:"first_different_step"`
	AnswerA   string `json:"answer_a,omitempty"`
	AnswerB   string `json:"answer_b,omitempty"`
}

// maxCompared bounds the matches a comparison reads (newest first).
const maxCompared = 500

// compareVersions compares versions a and b (numbers) of bot id from its ladder matches.
func (s *Server) compareVersions(ctx context.Context, id int64, a, b int) (*Comparison, error) {
	vs, err := s.st.Versions(ctx, id)
	if err != nil {
		return nil, err
	}
	ids := map[int]int64{}
	for _, v := range vs {
		ids[v.N] = v.ID
	}
	va, vb := ids[a], ids[b]
	if va == 0 || vb == 0 || a == b {
		return nil, bad(http.StatusNotFound, "compare two different versions of the bot (a=N&b=M; it has versions 1 to %d)", len(vs))
	}
	ms, err := s.st.LadderMatches(ctx, store.MatchFilter{BotID: id, Kind: store.KindLadder, Status: store.LadderDone, Limit: maxCompared})
	if err != nil {
		return nil, err
	}
	c := &Comparison{A: a, B: b}
	rows := map[string]*OpponentRow{}
	var order []string
	type key struct {
		seed uint64
		opp  string
	}
	played := map[key]map[int64]store.LadderMatch{} // by seed and opponent versions: version -> match
	for _, m := range ms {
		mine, opp := -1, []string{}
		var ver int64
		for i, st := range m.Seats {
			switch st.VersionID {
			case va, vb:
				if mine >= 0 { // both versions in one match
					c.HeadToHead.add(m.Seats[seatOf(m, va)].Result)
				}
				mine, ver = i, st.VersionID
			default:
				opp = append(opp, fmt.Sprintf("%d", st.VersionID))
			}
		}
		if mine < 0 || len(opp) != len(m.Seats)-1 {
			continue
		}
		for _, st := range m.Seats {
			if st.VersionID == va || st.VersionID == vb {
				continue
			}
			name := st.Bot + " (" + st.Author + ")"
			r := rows[name]
			if r == nil {
				r = &OpponentRow{Opponent: name}
				rows[name] = r
				order = append(order, name)
			}
			if ver == va {
				r.A.add(m.Seats[mine].Result)
			} else {
				r.B.add(m.Seats[mine].Result)
			}
		}
		k := key{m.Seed, strings.Join(opp, ",")}
		if played[k] == nil {
			played[k] = map[int64]store.LadderMatch{}
		}
		played[k][ver] = m
	}
	for _, n := range order {
		c.Opponents = append(c.Opponents, *rows[n])
	}
	for _, p := range played {
		ma, okA := p[va]
		mb, okB := p[vb]
		if !okA || !okB {
			continue
		}
		pair, err := s.firstDifference(ctx, ma, mb, va, vb)
		if err != nil {
			return nil, err
		}
		c.SameSeed = append(c.SameSeed, pair)
	}
	return c, nil
}

func seatOf(m store.LadderMatch, version int64) int {
	for i, st := range m.Seats {
		if st.VersionID == version {
			return i
		}
	}
	return 0
}

// firstDifference reads both matches' records and finds the first step where version a's
// answers (in ma) and b's (in mb) differ.
func (s *Server) firstDifference(ctx context.Context, ma, mb store.LadderMatch, va, vb int64) (SameSeedPair, error) {
	p := SameSeedPair{Seed: ma.Seed, MatchA: ma.ID, MatchB: mb.ID}
	read := func(id int64) (*replay.Record, error) {
		raw, err := s.st.LadderReplay(ctx, id)
		if err != nil {
			return nil, err
		}
		return replay.Decode(bytes.NewReader(raw), fmt.Sprintf("match %d", id))
	}
	ra, err := read(ma.ID)
	if err != nil {
		return p, err
	}
	rb, err := read(mb.ID)
	if err != nil {
		return p, err
	}
	sa, sb := seatOf(ma, va), seatOf(mb, vb)
	for k := 0; k < len(ra.Steps) && k < len(rb.Steps); k++ {
		x, y := answerOf(ra.Steps[k], sa), answerOf(rb.Steps[k], sb)
		if x != y {
			p.FirstDiff, p.AnswerA, p.AnswerB = k+1, x, y
			break
		}
	}
	return p, nil
}

// answerOf is seat's answer at a step as text (its action without the step, or its fault kind).
func answerOf(st replay.Step, seat int) string {
	for _, a := range st.Answers {
		if a.Seat == seat {
			if a.Fault != nil {
				return "FAULT " + a.Fault.Kind.String()
			}
			return stepless.ReplaceAllString(string(a.Action), "")
		}
	}
	return ""
}

var stepless = regexp.MustCompile(`"step":"?[0-9]*"?,?`)

func (s *Server) apiCompare(w http.ResponseWriter, r *http.Request) {
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such bot")
		return
	}
	a, _ := strconv.Atoi(r.URL.Query().Get("a"))
	b, _ := strconv.Atoi(r.URL.Query().Get("b"))
	c, err := s.compareVersions(r.Context(), id, a, b)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"bot_id": id, "a": a, "b": b, "comparison": c})
}

// pageCompare shows two versions side by side (default: the newest two).
func (s *Server) pageCompare(w http.ResponseWriter, r *http.Request) {
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
	a, _ := strconv.Atoi(r.URL.Query().Get("a"))
	b, _ := strconv.Atoi(r.URL.Query().Get("b"))
	if a == 0 && b == 0 && len(bv.Versions) >= 2 {
		a, b = bv.Versions[1].N, bv.Versions[0].N
	}
	c, err := s.compareVersions(r.Context(), id, a, b)
	if err != nil {
		s.answer(w, r, err)
		return
	}
	s.render(w, r, "compare", map[string]any{"Title": bv.Bot.Name + " versions", "B": bv, "A": a, "Bv": b, "C": c})
}
