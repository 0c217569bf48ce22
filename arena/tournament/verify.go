package tournament

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/arena/store"
)

// ErrForged means a result does not follow from its own replay, or does not answer the
// job it names: proof of a worker's misbehaviour (or of an engine that differs from the
// coordinator's), never a bot's fault.
var ErrForged = errors.New("a result that does not prove itself")

// maxLog bounds one seat's log in a result (the runner keeps matchplay.LogLines lines of stderr).
const maxLog = 64 << 10

// Verify checks a decoded result against the job it answers before anything of it counts:
// it names the job and repeats its nonce; its replay is a record of this match (game, match
// id, seed, parameters, the seated bots); re-running the engine on the replay's answers
// (replay.Run, the arena's one judge of a record) gives the replay's outcome; and the
// result's record (outcome, seats, steps), its faults and its timings are what that outcome
// makes of them. What it cannot check is whether the answers are the bots' own: the audit
// (Trial) plays a share of matches again on another worker for that.
func Verify(j Job, r Result) (match.Result, error) {
	var res match.Result
	forged := func(format string, a ...any) (match.Result, error) {
		return res, fmt.Errorf("%w: %s", ErrForged, fmt.Sprintf(format, a...))
	}
	if r.Job != j.ID() || subtle.ConstantTimeCompare([]byte(r.Nonce), []byte(j.Nonce)) != 1 || r.Key != j.Key || r.Idx != j.Match.Idx || r.Attempt != j.Attempt {
		return forged("it does not answer job %s with that job's nonce", j.ID())
	}
	for _, l := range r.Logs {
		if len(l) > maxLog {
			return forged("a seat's log of %d KiB (at most %d)", len(l)>>10, maxLog>>10)
		}
	}
	if err := r.ValidFor(j.Match); err != nil {
		return forged("%v", err)
	}
	if r.Infra != "" || r.Error != "" {
		return res, nil
	}
	if err := json.Unmarshal(r.Finish.Result, &res); err != nil {
		return forged("its record is not a match record (%v)", err)
	}
	rec, err := replay.Decode(bytes.NewReader(r.Replay), "the result's replay")
	if err != nil {
		return forged("%v", err)
	}
	if rec.Game != j.Config.Game || rec.MatchID != j.Match.MatchID || rec.Config.Seed != j.Match.Seed || !sameParams(rec.Config.Params, j.Config.Params) {
		return forged("its replay is of another match (%s %s seed %d)", rec.Game, rec.MatchID, rec.Config.Seed)
	}
	if mode := j.Config.ClockMode(); rec.Clock != string(mode) {
		return forged("its replay was played on the %q clock, the job asked for %s", rec.Clock, mode)
	}
	if len(rec.Config.Players) != len(j.Bots) || len(rec.Bots) != len(j.Bots) {
		return forged("its replay seats %d players, the match %d", len(rec.Config.Players), len(j.Bots))
	}
	for i, b := range j.Bots {
		if rec.Config.Players[i].Name != b.Name || rec.Bots[i] != b.Name {
			return forged("its replay seats %q where the match seats %q", rec.Config.Players[i].Name, b.Name)
		}
	}
	if rec.Outcome == nil {
		return forged("its replay has no outcome")
	}
	var seats []game.Seat
	out, err := replay.Run(rec, func(_ replay.Step, eng game.Engine, _ []game.Answer) {
		if seats == nil {
			seats = eng.Seats()
		}
	})
	if err != nil {
		return forged("re-running the engine on its replay: %v", err)
	}
	if !sameJSON(out, res.Outcome) {
		return forged("its record says %q, its replay gives %q", res.Outcome.Summary, out.Summary)
	}
	if !reflect.DeepEqual(seats, res.Seats) || res.Steps != len(rec.Steps) || len(res.Stats) != len(res.Seats) {
		return forged("its seats or steps are not those of its replay")
	}
	if want := faults(j.Match, &res); !sameJSON(want, r.Finish.Faults) {
		return forged("its faults are not those of its outcome")
	}
	if want := timings(j.Match, &res); !sameJSON(want, r.Finish.Timings) {
		return forged("its timings are not those of its record")
	}
	return res, nil
}

// Agree reports whether two verified results of one match came out the same: the same
// outcome (ranks, scores, faults, summary), so either may be recorded.
func Agree(a, b match.Result) bool { return sameJSON(a.Outcome, b.Outcome) }

// faults are the store's faults of a played match: each charged to the bot in its seat.
func faults(m store.Match, res *match.Result) []store.Fault {
	var out []store.Fault
	for _, f := range res.Outcome.Faults {
		bot := -1
		if f.Seat >= 0 && f.Seat < len(res.Seats) && res.Seats[f.Seat].Player >= 0 && res.Seats[f.Seat].Player < len(m.Players) {
			bot = m.Players[res.Seats[f.Seat].Player]
		}
		out = append(out, store.Fault{MatchIdx: m.Idx, BotIdx: bot, Seat: f.Seat, Where: f.Where,
			Kind: f.Kind.String(), Detail: f.Detail, Penalty: f.Penalty})
	}
	return out
}

// timings are the store's per-seat timings of a played match.
func timings(m store.Match, res *match.Result) []store.Timing {
	var out []store.Timing
	for s, st := range res.Stats {
		bot := -1
		if s < len(res.Seats) && res.Seats[s].Player >= 0 && res.Seats[s].Player < len(m.Players) {
			bot = m.Players[res.Seats[s].Player]
		}
		out = append(out, store.Timing{Seat: s, BotIdx: bot, Moves: st.Moves, Total: st.Total, Max: st.Max})
	}
	return out
}

func sameParams(a, b map[string]string) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

// sameJSON compares two values as their JSON (what is stored), so nil and empty agree.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var u, v any
	_ = json.Unmarshal(x, &u)
	_ = json.Unmarshal(y, &v)
	return reflect.DeepEqual(u, v)
}
