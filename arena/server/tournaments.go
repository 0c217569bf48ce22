package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

// DefaultMaxTournamentMatches bounds an organiser's tournament (Options.MaxTournamentMatches):
// it is played by this process beside the ladder, so far below the schedule's own cap
// (tournament.MaxMatches, for arena tournament on a machine of its own).
const DefaultMaxTournamentMatches = 2000

// StatusCancelled is the status of a tournament the organiser cancelled.
const StatusCancelled = "cancelled"

// organised is an organiser's tournament this process plays.
type organised struct {
	cancel    context.CancelFunc
	done      chan struct{}
	cancelled bool
}

// boundTournament refuses a tournament larger than the organiser's bound, from the counts
// alone (before a schedule is built).
func (s *Server) boundTournament(cfg tournament.Config) error {
	spec, err := game.Lookup(cfg.Game)
	if err != nil {
		return bad(http.StatusBadRequest, "%v", err)
	}
	n, err := tournament.ScheduleSize(spec, cfg)
	if err != nil {
		return bad(http.StatusBadRequest, "%v", err)
	}
	if limit := s.opt.MaxTournamentMatches; n > limit {
		per := max(1, n/cfg.Reps)
		return bad(http.StatusBadRequest, "%d bots with %d repetitions make %d matches, more than an organiser's tournament may play (--max-tournament-matches %d): lower the repetitions (at most %d here) or raise the bound",
			len(cfg.Entries), cfg.Reps, n, limit, max(0, limit/per))
	}
	return nil
}

// runTournament plays tournament id in the background until it ends or is cancelled; its
// entrants' versions stay pinned (their files kept) meanwhile.
func (s *Server) runTournament(id int64, name string, entrants []int64) {
	ctx, cancel := context.WithCancel(context.Background())
	o := &organised{cancel: cancel, done: make(chan struct{})}
	s.runningMu.Lock()
	s.running[id] = o
	s.runningMu.Unlock()
	go func() {
		defer close(o.done)
		defer s.lad.Unpin(entrants)
		_, err := tournament.Run(ctx, s.st, id, tournament.Options{Jobs: 1, Resolver: s.lad.Resolver, Host: s.lad.Host})
		s.runningMu.Lock()
		delete(s.running, id)
		cancelled := o.cancelled
		s.runningMu.Unlock()
		cancel()
		if cancelled && err != nil {
			// Run marked it interrupted; the organiser's word is final.
			_ = s.st.SetStatus(context.Background(), id, StatusCancelled)
			return
		}
		if err != nil {
			s.opt.Logger.Printf("tournament %s: %v", name, err)
		}
	}()
}

// postCancelTournament stops a tournament (organisers): the matches being played end, no
// other starts, and it keeps what it played, with the status cancelled. One this process is
// not playing (interrupted by a restart, or arena tournament's) is only marked cancelled.
func (s *Server) postCancelTournament(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.needOrganiser(w, r); !ok {
		return
	}
	id, ok := idParam(r, "id")
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no such tournament")
		return
	}
	t, err := s.st.FindTournament(r.Context(), fmt.Sprint(id))
	if err == nil && t.ID != id {
		err = fmt.Errorf("%w: no tournament %d", store.ErrNotFound, id)
	}
	if err != nil {
		s.internal(w, r, err)
		return
	}
	if t.Status == "finished" {
		s.fail(w, r, http.StatusConflict, fmt.Sprintf("tournament %s has finished: there is nothing to cancel", t.Name))
		return
	}
	s.runningMu.Lock()
	o := s.running[id]
	if o != nil {
		o.cancelled = true
		o.cancel()
	}
	s.runningMu.Unlock()
	if o != nil {
		select {
		case <-o.done: // its status is set
		case <-r.Context().Done():
			return
		}
	} else if err := s.st.SetStatus(r.Context(), id, StatusCancelled); err != nil {
		s.internal(w, r, err)
		return
	}
	if isAPI(r) {
		writeJSON(w, http.StatusOK, map[string]any{"tournament_id": id, "status": StatusCancelled})
		return
	}
	http.Redirect(w, r, fmt.Sprintf("/tournaments/%d", id), http.StatusSeeOther)
}
