package server

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
)

// redact removes from a replay what quotes a bot's stderr (a crash's traceback, a fault's
// detail) for every seat the viewer does not own: nobody sees another author's logs, not even
// through a replay. The recorded outcome goes too when anything was removed (its faults quote
// the same text); the engine recomputes it from the steps, so the replay still replays.
// mine[p] says whether player p is the requester's; nil means nobody's.
func redact(raw []byte, mine []bool) ([]byte, error) {
	if all(mine) || !bytes.Contains(raw, []byte(`"detail"`)) {
		return raw, nil // nothing to hide (the usual case: a match without faults)
	}
	rec, err := replay.Decode(bytes.NewReader(raw), "the match's replay")
	if err != nil {
		return nil, err
	}
	// Two-player and table games have a seat per player; realtv's scripts hold many seats
	// each, so there a seat is only known to be one's own when every player is.
	perPlayer := maxSeat(rec) < len(rec.Config.Players)
	owned := func(seat int) bool {
		return all(mine) || perPlayer && seat < len(mine) && mine[seat]
	}
	changed := false
	for i := range rec.Steps {
		for j := range rec.Steps[i].Answers {
			a := &rec.Steps[i].Answers[j]
			if a.Fault != nil && a.Fault.Detail != "" && !owned(a.Seat) {
				f := *a.Fault
				f.Detail = ""
				a.Fault = &f
				changed = true
			}
		}
	}
	if rec.Outcome != nil {
		for _, f := range rec.Outcome.Faults {
			if f.Detail != "" && !owned(f.Seat) {
				changed = true
			}
		}
	}
	if !changed {
		return raw, nil
	}
	rec.Outcome = nil
	return json.Marshal(rec)
}

func maxSeat(rec *replay.Record) int {
	m := -1
	for _, st := range rec.Steps {
		for _, a := range st.Answers {
			m = max(m, a.Seat)
		}
	}
	return m
}

func all(bs []bool) bool {
	for _, b := range bs {
		if !b {
			return false
		}
	}
	return len(bs) > 0
}

// ladderReplay is a ladder match's replay as the requester may see it, with the key of that view.
func (s *Server) ladderReplay(r *http.Request, id int64) ([]byte, string, error) {
	m, err := s.st.LadderMatchByID(r.Context(), id)
	if err != nil {
		return nil, "", err
	}
	mine := ownedSeats(r, m)
	raw, err := s.st.LadderReplay(r.Context(), id)
	if err != nil {
		return nil, "", err
	}
	b, err := s.redactBounded(r, raw, mine)
	return b, maskKey(mine), err
}

// redactBounded is redact in one of the render slots when it has to decode the replay.
func (s *Server) redactBounded(r *http.Request, raw []byte, mine []bool) ([]byte, error) {
	if all(mine) || !bytes.Contains(raw, []byte(`"detail"`)) {
		return raw, nil
	}
	release, err := s.limits.renders.Acquire(r.Context())
	if err != nil {
		return nil, bad(http.StatusServiceUnavailable, "other replays are being prepared: try again in a few seconds")
	}
	defer release()
	return redact(raw, mine)
}

// tournamentView is a tournament match's replay as the requester may see it: a tournament's
// bots are the organiser's command-line entries, so only organisers see fault details.
func (s *Server) tournamentView(r *http.Request) ([]byte, string, error) {
	raw, err := s.tournamentReplay(r)
	if err != nil {
		return nil, "", err
	}
	if u, ok := current(r); ok && u.Role == store.RoleOrganiser {
		return raw, "all", nil
	}
	b, err := s.redactBounded(r, raw, nil)
	return b, "none", err
}

// ownedSeats says which players of a ladder match are the requester's.
func ownedSeats(r *http.Request, m store.LadderMatch) []bool {
	u, ok := current(r)
	mine := make([]bool, len(m.Seats))
	for i, s := range m.Seats {
		mine[i] = ok && s.UserID == u.ID
	}
	return mine
}

func maskKey(mine []bool) string {
	b := make([]byte, len(mine))
	for i, m := range mine {
		b[i] = '0'
		if m {
			b[i] = '1'
		}
	}
	return string(b)
}
