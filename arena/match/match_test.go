package match_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/match"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// fakePlayer answers with a scripted function; unit tests only.
type fakePlayer struct {
	name  string
	dead  bool
	act   func(req *arenav1.ActRequest) (*arenav1.ActResponse, error)
	ended int
}

func (p *fakePlayer) Label() string     { return p.name }
func (p *fakePlayer) Alive() bool       { return !p.dead }
func (p *fakePlayer) Why() string       { return "gone" }
func (p *fakePlayer) Tail(int) []string { return []string{"last words"} }
func (p *fakePlayer) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return p, nil
}
func (p *fakePlayer) Act(req *arenav1.ActRequest, _ time.Duration) (*arenav1.ActResponse, error) {
	return p.act(req)
}
func (p *fakePlayer) End(*arenav1.EndRequest, time.Duration) error { p.ended++; return nil }

func rock(req *arenav1.ActRequest) (*arenav1.ActResponse, error) {
	return &arenav1.ActResponse{Step: req.GetStep(), Action: &arenav1.ActResponse_Dynamite{
		Dynamite: &arenav1.DynamiteAction{Move: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}, nil
}

func run(t *testing.T, a, b *fakePlayer, opt match.Options) *match.Result {
	t.Helper()
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: a.name}, {Name: b.name}}, Params: map[string]string{"rounds": "20"}}
	res, err := match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{a, b}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestRunnerFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		bad  *fakePlayer
		kind game.FaultKind
		text string
	}{
		{"timeout", &fakePlayer{act: func(*arenav1.ActRequest) (*arenav1.ActResponse, error) { return nil, match.ErrTimeout }},
			game.FaultTimeout, "no answer within"},
		{"crash", &fakePlayer{act: func(*arenav1.ActRequest) (*arenav1.ActResponse, error) {
			return nil, errors.New("stream broke")
		}}, game.FaultCrash, "last words"},
		{"dead", &fakePlayer{dead: true, act: rock}, game.FaultCrash, "not running"},
		{"wrong step", &fakePlayer{act: func(r *arenav1.ActRequest) (*arenav1.ActResponse, error) {
			resp, _ := rock(r)
			resp.Step++
			return resp, nil
		}}, game.FaultGarbage, "answered step"},
		{"exception", &fakePlayer{act: func(r *arenav1.ActRequest) (*arenav1.ActResponse, error) {
			return &arenav1.ActResponse{Step: r.GetStep(), Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION,
				Message: "boom", Traceback: "File bot.py line 3"}}, nil
		}}, game.FaultCrash, "bot.py line 3"},
		{"invalid", &fakePlayer{act: func(r *arenav1.ActRequest) (*arenav1.ActResponse, error) {
			return &arenav1.ActResponse{Step: r.GetStep(), Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER,
				Message: "returned 'X'"}}, nil
		}}, game.FaultGarbage, "returned 'X'"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.bad.name = "bad"
			good := &fakePlayer{name: "good", act: rock}
			res := run(t, good, c.bad, match.Options{MatchID: "m"})
			o := res.Outcome
			if len(o.Faults) != 1 || o.Faults[0].Seat != 1 || o.Faults[0].Kind != c.kind || !strings.Contains(o.Faults[0].Detail, c.text) {
				t.Fatalf("faults %+v, want one %v mentioning %q", o.Faults, c.kind, c.text)
			}
			if o.Players[0].Result != game.ResultWin {
				t.Fatalf("outcome %+v", o.Players)
			}
			if good.ended != 1 {
				t.Fatalf("good seat ended %d times", good.ended)
			}
		})
	}
}

func TestClockIsChargedAndRunsOut(t *testing.T) {
	t.Parallel()
	slow := &fakePlayer{name: "slow", act: func(r *arenav1.ActRequest) (*arenav1.ActResponse, error) {
		time.Sleep(30 * time.Millisecond)
		return rock(r)
	}}
	res := run(t, &fakePlayer{name: "fast", act: rock}, slow, match.Options{MatchID: "m", ClockMs: 100})
	o := res.Outcome
	if len(o.Faults) != 1 || o.Faults[0].Kind != game.FaultTimeout || !strings.Contains(o.Faults[0].Detail, "clock ran out") {
		t.Fatalf("faults %+v", o.Faults)
	}
	if o.Faults[0].Where == "round 1" || o.Faults[0].Where == "round 2" {
		t.Fatalf("clock ran out too early: %s", o.Faults[0].Where)
	}
}

func TestRequestsCarryDeadlineAndStep(t *testing.T) {
	t.Parallel()
	var steps []int64
	check := &fakePlayer{name: "check", act: func(r *arenav1.ActRequest) (*arenav1.ActResponse, error) {
		if r.GetDeadlineMs() != 250 || r.GetMatchId() != "m7" || r.GetSeat() != 0 {
			return nil, errors.New("bad request envelope")
		}
		steps = append(steps, r.GetStep())
		return rock(r)
	}}
	res := run(t, check, &fakePlayer{name: "b", act: rock}, match.Options{MatchID: "m7", Deadline: 250 * time.Millisecond})
	if len(res.Outcome.Faults) != 0 || len(steps) != 20 || steps[19] != 20 {
		t.Fatalf("faults %+v steps %v", res.Outcome.Faults, steps)
	}
}

// meteredPlayer burns 2ms of pretend CPU per move.
type meteredPlayer struct {
	fakePlayer
	cpu time.Duration
}

func (p *meteredPlayer) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return p, nil
}

func (p *meteredPlayer) Act(req *arenav1.ActRequest, _ time.Duration) (*arenav1.ActResponse, error) {
	p.cpu += 2 * time.Millisecond
	return rock(req)
}

func (p *meteredPlayer) Snapshot() (time.Duration, int64) { return p.cpu, 1 << 20 }

func TestMovesAreMeasuredWhenAsked(t *testing.T) {
	t.Parallel()
	for _, measure := range []bool{true, false} {
		m := &meteredPlayer{fakePlayer: fakePlayer{name: "m"}}
		var rec recorder
		cfg := game.Config{Seed: 1, Players: []game.Player{{Name: "m"}, {Name: "b"}}, Params: map[string]string{"rounds": "10"}}
		res, err := match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{m, &fakePlayer{name: "b", act: rock}},
			match.Options{MatchID: "m", MeasureMoves: measure, Recorder: &rec})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Stats[0]
		if measure && (st.CPU != 20*time.Millisecond || st.MaxCPU != 2*time.Millisecond || st.PeakMemory != 1<<20 || rec.cpu != 20*time.Millisecond) {
			t.Fatalf("measured stats %+v, recorded cpu %v", st, rec.cpu)
		}
		if !measure && (st.CPU != 0 || rec.cpu != 0) {
			t.Fatalf("measured without being asked: %+v", st)
		}
	}
}

type recorder struct{ cpu time.Duration }

func (r *recorder) Step(_ int, answers []game.Answer) {
	for _, a := range answers {
		r.cpu += a.CPU
	}
}
