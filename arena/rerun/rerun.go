package rerun

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/replay"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// ErrDiverged means a live bot answered differently from the record and the plan stops there;
// errors.As finds the *Divergence.
var ErrDiverged = errors.New("the live bot answered differently from the record")

// ErrRecord means the record does not fit the re-run (a step the engine did not ask, a seat
// missing, an unreadable answer).
var ErrRecord = errors.New("the record cannot be re-run")

// Divergence is the first step where live bots answered differently from the record.
type Divergence struct {
	Step  int
	Diffs []Diff
	// Continued is set when the match went on with live bots after it.
	Continued bool
}

// Diff is one seat's two answers at the divergence.
type Diff struct {
	Seat     int
	Name     string
	Recorded string
	Live     string
}

func (d *Divergence) Error() string {
	parts := make([]string, len(d.Diffs))
	for i, x := range d.Diffs {
		parts[i] = fmt.Sprintf("%s (seat %d) answered %s where the record has %s", x.Name, x.Seat, x.Live, x.Recorded)
	}
	return fmt.Sprintf("%v at step %d: %s", ErrDiverged, d.Step, strings.Join(parts, "; "))
}

func (d *Divergence) Unwrap() error { return ErrDiverged }

// Plan says which answers come from the record.
type Plan struct {
	Rec *replay.Record
	// Live marks the players (indexes of Rec.Config.Players) whose bots play live and are
	// compared with the record at every step (Against). Nil in a fork.
	Live []bool
	// From is the first step (from 1) whose answers are the bots' own: every earlier step
	// takes the record's answers (a fork). 0 in Against.
	From int
	// Continue lets the match go on after a divergence, every player live (the players
	// that were answered from the record must then be live bots too).
	Continue bool
	// Recorder gets every step as it was applied (the re-run's own record).
	Recorder match.Recorder

	div *Divergence
}

// Divergence returns the first divergence (nil while the live bots agree with the record).
func (p *Plan) Divergence() *Divergence { return p.div }

// Spec wraps spec so that the runner's engine takes its answers from the plan.
func (p *Plan) Spec(spec game.Spec) game.Spec {
	s := spec
	s.New = func(cfg game.Config) (game.Engine, error) {
		e, err := spec.New(cfg)
		if err != nil {
			return nil, err
		}
		return &engine{Engine: e, plan: p}, nil
	}
	return s
}

// engine applies the plan's answers in place of the runner's.
type engine struct {
	game.Engine
	plan *Plan
	step int
	out  []game.Answer
}

// following reports whether step n takes the record's answers.
func (p *Plan) following(n int) bool {
	if n < p.From {
		return true
	}
	return p.Live != nil && p.div == nil
}

func (e *engine) Apply(answers []game.Answer) error {
	e.step++
	p := e.plan
	out := answers
	if p.following(e.step) {
		if e.step > len(p.Rec.Steps) {
			return fmt.Errorf("%w: the engine asks for step %d, the record has %d steps", ErrRecord, e.step, len(p.Rec.Steps))
		}
		recorded, err := recordedAnswers(p.Rec, e.step-1)
		if err != nil {
			return err
		}
		e.out = e.out[:0]
		var diffs []Diff
		seats := e.Seats()
		for _, a := range answers {
			r, ok := recorded[a.Seat]
			if !ok {
				return fmt.Errorf("%w: step %d asks seat %d, which the record did not answer there", ErrRecord, e.step, a.Seat)
			}
			if e.step >= p.From && p.Live != nil && p.Live[seats[a.Seat].Player] && !Same(a, r) {
				diffs = append(diffs, Diff{Seat: a.Seat, Name: seats[a.Seat].Name, Recorded: replay.ActionText(r), Live: replay.ActionText(a)})
				// The live answer keeps the recorded arrival order: the others' are recorded.
				a.Order = r.Order
				e.out = append(e.out, a)
				continue
			}
			e.out = append(e.out, r)
		}
		if len(recorded) != len(answers) {
			return fmt.Errorf("%w: step %d has %d recorded answers, the engine asks %d seats", ErrRecord, e.step, len(recorded), len(answers))
		}
		if len(diffs) > 0 {
			p.div = &Divergence{Step: e.step, Diffs: diffs, Continued: p.Continue}
			if !p.Continue {
				return p.div
			}
		}
		out = e.out
	}
	if p.Recorder != nil {
		p.Recorder.Step(e.step, out)
	}
	return e.Engine.Apply(out)
}

// recordedAnswers decodes step k (from 0) of rec by seat.
func recordedAnswers(rec *replay.Record, k int) (map[int]game.Answer, error) {
	st := rec.Steps[k]
	if st.N != 0 && st.N != k+1 {
		return nil, fmt.Errorf("%w: its step %d is numbered %d", ErrRecord, k+1, st.N)
	}
	m := make(map[int]game.Answer, len(st.Answers))
	for _, a := range st.Answers {
		ga := game.Answer{Seat: a.Seat, Order: a.Order, Elapsed: time.Duration(a.Elapsed) * time.Microsecond, Fault: a.Fault,
			Wall: time.Duration(a.Wall) * time.Microsecond, CPU: time.Duration(a.CPU) * time.Microsecond, MemoryBytes: a.Memory}
		if a.Fault == nil {
			var resp arenav1.ActResponse
			if err := protojson.Unmarshal(a.Action, &resp); err != nil {
				return nil, fmt.Errorf("%w: step %d seat %d: %v", ErrRecord, k+1, a.Seat, err)
			}
			ga.Action = &resp
		}
		m[a.Seat] = game.JudgeAnswer(rec.Game, ga)
	}
	return m, nil
}

// Same reports whether two answers are the same move: equal actions (the step each carries
// aside), or faults of the same kind (a timeout is a timeout, whatever its detail).
func Same(a, b game.Answer) bool {
	if (a.Fault != nil) != (b.Fault != nil) {
		return false
	}
	if a.Fault != nil {
		return a.Fault.Kind == b.Fault.Kind
	}
	x, y := proto.Clone(a.Action).(*arenav1.ActResponse), proto.Clone(b.Action).(*arenav1.ActResponse)
	x.Step, y.Step = 0, 0
	return proto.Equal(x, y)
}

// Recorded is a player whose answers come from the record: it opens its seats at once and
// answers every request at once with its recorded answer (the plan applies the record's answer
// in any case; this one only keeps the runner's own counts plausible).
type Recorded struct {
	Name string
	Rec  *replay.Record
}

// Label names the player.
func (r *Recorded) Label() string { return r.Name }

// Alive is always true: a recorded crash is in the record's answers.
func (r *Recorded) Alive() bool { return true }

// Why is empty.
func (r *Recorded) Why() string { return "" }

// Tail is empty: a record keeps no logs.
func (r *Recorded) Tail(int) []string { return nil }

// Open opens a seat.
func (r *Recorded) Open(_ context.Context, req *arenav1.StartRequest, _ time.Duration) (match.Conn, error) {
	return &recordedSeat{rec: r.Rec, seat: int(req.GetSeat())}, nil
}

type recordedSeat struct {
	rec  *replay.Record
	seat int
}

func (s *recordedSeat) Act(req *arenav1.ActRequest, _ time.Duration) (*arenav1.ActResponse, error) {
	k := int(req.GetStep()) - 1
	if k >= 0 && k < len(s.rec.Steps) {
		for _, a := range s.rec.Steps[k].Answers {
			if a.Seat == s.seat && a.Fault == nil {
				var resp arenav1.ActResponse
				if protojson.Unmarshal(a.Action, &resp) == nil {
					resp.Step = req.GetStep()
					return &resp, nil
				}
			}
		}
	}
	// A recorded fault (or nothing recorded): an empty answer; the plan applies the record's.
	return &arenav1.ActResponse{Step: req.GetStep()}, nil
}

// Inline: the answer is at hand, no goroutine needed.
func (s *recordedSeat) Inline() bool { return true }

func (s *recordedSeat) End(*arenav1.EndRequest, time.Duration) error { return nil }

// Begin is a match.Recorder that only passes the configuration on (the plan records the
// steps): give it to match.Options.Recorder.
type Begin struct {
	R interface{ Begin(game.Config) }
}

// Begin passes the configuration on.
func (b Begin) Begin(cfg game.Config) { b.R.Begin(cfg) }

// Step does nothing: the plan records the applied answers.
func (Begin) Step(int, []game.Answer) {}

// PlayerByName finds a recorded player by index ("0") or by name; the error lists them.
func PlayerByName(rec *replay.Record, which string) (int, error) {
	if i, err := strconv.Atoi(which); err == nil && i >= 0 && i < len(rec.Config.Players) {
		return i, nil
	}
	for i, p := range rec.Config.Players {
		if p.Name == which {
			return i, nil
		}
	}
	return -1, fmt.Errorf("the record has no player %q: %s", which, Players(rec))
}

// Players lists a record's players as "0 (name), 1 (name)".
func Players(rec *replay.Record) string {
	parts := make([]string, len(rec.Config.Players))
	for i, p := range rec.Config.Players {
		parts[i] = fmt.Sprintf("%d (%s)", i, p.Name)
	}
	return strings.Join(parts, ", ")
}
