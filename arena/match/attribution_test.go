package match_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/match"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// causePlayer is a CPUConn (and CPUOpener) whose move at step stop ends with err and the
// usage given; it keeps what its Start was given.
type causePlayer struct {
	cpuPlayer
	stop      int64
	usage     match.Usage
	err       error
	openErr   error
	startCPU  time.Duration
	startWall time.Duration
}

func (p *causePlayer) OpenCPU(_ context.Context, _ *arenav1.StartRequest, cpu, wall time.Duration) (match.Conn, error) {
	p.startCPU, p.startWall = cpu, wall
	if p.openErr != nil {
		return nil, p.openErr
	}
	return p, nil
}

func (p *causePlayer) ActCPU(req *arenav1.ActRequest, _, _ time.Duration) (*arenav1.ActResponse, match.Usage, error) {
	if req.GetStep() == p.stop {
		return nil, p.usage, p.err
	}
	resp, _ := rock(req)
	return resp, match.Usage{CPU: time.Millisecond, Wall: time.Millisecond, Own: time.Millisecond}, nil
}

func runCause(p *causePlayer, opt match.Options) (*match.Result, error) {
	opt.MatchID = "a"
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: "c"}, {Name: "b"}}, Params: map[string]string{"rounds": "10"}}
	return match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{p, &fakePlayer{name: "b", act: rock}}, opt)
}

func TestTimeoutSaysItsCauseWithFigures(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		usage match.Usage
		want  []string
	}{
		{"a sleeper", match.Usage{CPU: 2 * time.Millisecond, Wall: 320 * time.Millisecond, RunQueue: 10 * time.Millisecond, Own: 310 * time.Millisecond, Cause: match.CauseWait},
			[]string{"timeout (its own waiting)", "wall-time cap of 300ms", "CPU 2ms", "own waiting 308ms", "run-queue delay 10ms", "wall 320ms", "CPU share 1%"}},
		{"a spinner", match.Usage{CPU: 104 * time.Millisecond, Wall: 250 * time.Millisecond, RunQueue: 140 * time.Millisecond, Own: 110 * time.Millisecond, OverCPU: true, Cause: match.CauseCPU},
			[]string{"timeout (CPU budget)", "used 104ms of CPU time, over its budget of 100ms", "pondering included", "own waiting 6ms", "run-queue delay 140ms", "CPU share 42%"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := &causePlayer{cpuPlayer: cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true}, stop: 3, usage: c.usage, err: match.ErrTimeout}
			res, err := runCause(p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
			if err != nil {
				t.Fatal(err)
			}
			f := res.Outcome.Faults
			if len(f) != 1 || f[0].Kind != game.FaultTimeout || f[0].Where != "round 3" {
				t.Fatalf("faults %+v, want one timeout in round 3", f)
			}
			for _, w := range c.want {
				if !strings.Contains(f[0].Detail, w) {
					t.Errorf("%q does not say %q", f[0].Detail, w)
				}
			}
		})
	}
}

func TestAMachineStallVoidsTheMatch(t *testing.T) {
	t.Parallel()
	stall := fmt.Errorf("%w: figures", match.ErrStalled)
	for _, c := range []struct {
		name string
		p    *causePlayer
	}{
		{"in a move", &causePlayer{cpuPlayer: cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true}, stop: 4, err: stall}},
		{"in Start", &causePlayer{cpuPlayer: cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true}, openErr: stall}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := runCause(c.p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
			if !errors.Is(err, match.ErrStalled) || res != nil || !strings.Contains(err.Error(), "charged to no bot") {
				t.Fatalf("result %v, error %v: want no result and an error wrapping ErrStalled", res, err)
			}
		})
	}
}

func TestStartIsChargedLikeAMoveAndScalesWithTheBudget(t *testing.T) {
	t.Parallel()
	p := &causePlayer{cpuPlayer: cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true}}
	if _, err := runCause(p, match.Options{Deadline: 50 * time.Millisecond, Clock: match.ClockCPU}); err != nil {
		t.Fatal(err)
	}
	if p.startCPU != match.StartFactor*50*time.Millisecond || p.startWall != match.DefaultWallFactor*p.startCPU {
		t.Fatalf("Start given %v of CPU and a cap of %v: want %d x the move budget and %d x that", p.startCPU, p.startWall, match.StartFactor, match.DefaultWallFactor)
	}
	// A Start overrun says what ran out.
	p = &causePlayer{cpuPlayer: cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true},
		openErr: fmt.Errorf("%w: Start used 151ms of CPU time, over its allowance of 150ms", match.ErrTimeout)}
	res, err := runCause(p, match.Options{Deadline: 50 * time.Millisecond, Clock: match.ClockCPU})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Outcome.Faults; len(f) != 1 || f[0].Kind != game.FaultTimeout || !strings.Contains(f[0].Detail, "over its allowance of 150ms") {
		t.Fatalf("faults %+v, want a Start timeout naming its allowance", f)
	}
}
