package match_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/match"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"google.golang.org/protobuf/proto"
)

// cpuPlayer is a CPUConn whose moves use a scripted CPU time (by step) and a fixed wall time;
// it keeps the limits and requests it was given. Unit tests only.
type cpuPlayer struct {
	fakePlayer
	cpu      func(step int64) time.Duration
	wall     time.Duration
	measures bool
	limits   []time.Duration
	caps     []time.Duration
	reqs     []*arenav1.ActRequest
}

func (p *cpuPlayer) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return p, nil
}

func (p *cpuPlayer) Act(req *arenav1.ActRequest, _ time.Duration) (*arenav1.ActResponse, error) {
	return rock(req)
}

func (p *cpuPlayer) MeasuresCPU() bool { return p.measures }

func (p *cpuPlayer) ActCPU(req *arenav1.ActRequest, cpu, wall time.Duration) (*arenav1.ActResponse, match.Usage, error) {
	p.limits, p.caps = append(p.limits, cpu), append(p.caps, wall)
	p.reqs = append(p.reqs, proto.Clone(req).(*arenav1.ActRequest))
	u := match.Usage{CPU: p.cpu(req.GetStep()), Wall: p.wall}
	if u.CPU > cpu { // what the host does: stop the move at its limit
		return nil, match.Usage{CPU: cpu + time.Millisecond, Wall: p.wall, OverCPU: true}, match.ErrTimeout
	}
	resp, _ := rock(req)
	return resp, u, nil
}

func playCPU(t *testing.T, p *cpuPlayer, opt match.Options) (*match.Result, *recorder) {
	t.Helper()
	var rec recorder
	opt.MatchID, opt.Recorder = "c", &rec
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: "c"}, {Name: "b"}}, Params: map[string]string{"rounds": "10"}}
	res, err := match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{p, &fakePlayer{name: "b", act: rock}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res, &rec
}

func TestCPUClockChargesCPUNotWall(t *testing.T) {
	t.Parallel()
	// Every move takes 5x its budget in wall time (a busy machine) and 60 % of it in CPU.
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true, wall: 500 * time.Millisecond,
		cpu: func(int64) time.Duration { return 60 * time.Millisecond }}
	res, rec := playCPU(t, p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
	if len(res.Outcome.Faults) != 0 {
		t.Fatalf("faults %+v", res.Outcome.Faults)
	}
	st := res.Stats[0]
	if st.Total != 600*time.Millisecond || st.Wall != 5*time.Second || st.CPU != 600*time.Millisecond || rec.cpu != st.CPU {
		t.Fatalf("stats %+v (recorded cpu %v): want 10 moves charged 60ms of CPU each, 500ms of wall", st, rec.cpu)
	}
	r := p.reqs[0]
	if r.GetClockMode() != arenav1.ClockMode_CLOCK_MODE_CPU || r.GetBudgetUs() != 100_000 || r.GetDeadlineMs() != 100 ||
		r.GetWallCapMs() != 300 || p.caps[0] != 300*time.Millisecond || p.limits[0] != 100*time.Millisecond {
		t.Fatalf("request %v, limit %v, cap %v", r, p.limits[0], p.caps[0])
	}
}

func TestCPUClockTimeoutSaysCPU(t *testing.T) {
	t.Parallel()
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true, wall: time.Millisecond,
		cpu: func(step int64) time.Duration { return time.Duration(step) * 30 * time.Millisecond }}
	res, _ := playCPU(t, p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
	f := res.Outcome.Faults
	if len(f) != 1 || f[0].Seat != 0 || f[0].Kind != game.FaultTimeout || f[0].Where != "round 4" ||
		!strings.Contains(f[0].Detail, "of CPU time, over its budget of 100ms") {
		t.Fatalf("faults %+v, want a CPU timeout in round 4 (120ms of CPU)", f)
	}
}

func TestCPUClockBank(t *testing.T) {
	t.Parallel()
	// 130ms of CPU per move on a 100ms budget and a 100ms bank: moves 1-3 take 30ms each from
	// the bank, move 4 has 10ms of it left and overruns.
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true, wall: time.Millisecond,
		cpu: func(int64) time.Duration { return 130 * time.Millisecond }}
	res, _ := playCPU(t, p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU, Bank: 100 * time.Millisecond})
	f := res.Outcome.Faults
	if len(f) != 1 || f[0].Where != "round 4" || !strings.Contains(f[0].Detail, "overage bank") {
		t.Fatalf("faults %+v, want a timeout in round 4 naming the bank", f)
	}
	var banks []int64
	for _, r := range p.reqs {
		banks = append(banks, r.GetBankRemainingUs())
	}
	if want := []int64{100_000, 70_000, 40_000, 10_000}; len(banks) != 4 || banks[0] != want[0] || banks[1] != want[1] || banks[2] != want[2] || banks[3] != want[3] {
		t.Fatalf("bank left as sent: %v, want %v", banks, want)
	}
	if p.limits[3] != 110*time.Millisecond {
		t.Fatalf("move 4's limit %v, want budget + bank = 110ms", p.limits[3])
	}
}

func TestCPUClockLateAnswerIsATimeout(t *testing.T) {
	t.Parallel()
	// An answer that arrives between two polls after its limit was spent is late.
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true, wall: time.Millisecond,
		cpu: func(step int64) time.Duration {
			if step == 2 {
				return 100*time.Millisecond + time.Microsecond
			}
			return time.Millisecond
		}}
	// Let the fake answer past its limit instead of stopping: the runner must still refuse it.
	late := &lateConn{cpuPlayer: p}
	var rec recorder
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: "c"}, {Name: "b"}}, Params: map[string]string{"rounds": "10"}}
	res, err := match.Run(context.Background(), dynamite.Spec, cfg, []match.Player{late, &fakePlayer{name: "b", act: rock}},
		match.Options{MatchID: "c", Recorder: &rec, Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
	if err != nil {
		t.Fatal(err)
	}
	if f := res.Outcome.Faults; len(f) != 1 || f[0].Where != "round 2" || f[0].Kind != game.FaultTimeout {
		t.Fatalf("faults %+v, want a timeout in round 2", f)
	}
}

type lateConn struct{ *cpuPlayer }

func (l *lateConn) Open(context.Context, *arenav1.StartRequest, time.Duration) (match.Conn, error) {
	return l, nil
}

func (l *lateConn) ActCPU(req *arenav1.ActRequest, _, _ time.Duration) (*arenav1.ActResponse, match.Usage, error) {
	resp, _ := rock(req)
	return resp, match.Usage{CPU: l.cpu(req.GetStep()), Wall: time.Millisecond}, nil
}

func TestCPUClockFallsBackToWallWhereCPUIsNotMeasured(t *testing.T) {
	t.Parallel()
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: false, cpu: func(int64) time.Duration { return time.Hour }}
	res, _ := playCPU(t, p, match.Options{Deadline: 100 * time.Millisecond, Clock: match.ClockCPU})
	if len(res.Outcome.Faults) != 0 || len(p.limits) != 0 {
		t.Fatalf("faults %+v, ActCPU calls %d: want wall time (Act) for a seat that cannot be measured", res.Outcome.Faults, len(p.limits))
	}
}

func TestWallClockIgnoresCPUConn(t *testing.T) {
	t.Parallel()
	p := &cpuPlayer{fakePlayer: fakePlayer{name: "c"}, measures: true, cpu: func(int64) time.Duration { return time.Hour }}
	res, _ := playCPU(t, p, match.Options{Deadline: 100 * time.Millisecond})
	if len(res.Outcome.Faults) != 0 || len(p.limits) != 0 || p.fakePlayer.ended != 1 {
		t.Fatalf("faults %+v, ActCPU calls %d", res.Outcome.Faults, len(p.limits))
	}
}

func TestParseClockMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]match.ClockMode{"cpu": match.ClockCPU, "wall": match.ClockWall} {
		if got, err := match.ParseClockMode(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := match.ParseClockMode("CPU-time"); err == nil || !strings.Contains(err.Error(), "use cpu") {
		t.Errorf("a bad mode gives %v", err)
	}
}
