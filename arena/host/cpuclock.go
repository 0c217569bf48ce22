package host

import (
	"fmt"
	"runtime"
	"sync"
	"time"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sandbox"
)

// MoveUsage is what one move used: its bot's CPU time (the cgroup's reading after the answer
// minus the one before the request) and its wall time.
type MoveUsage struct {
	CPU, Wall time.Duration
	// OverCPU is set when the move was stopped for its CPU time, not its wall cap.
	OverCPU bool
}

// MinPoll is the shortest gap between two CPU readings while a move runs: how far past its
// budget a busy bot can get before it is stopped (plus the kernel's accounting lag of up to
// one scheduler tick).
const MinPoll = time.Millisecond

// cpuWatch is a running move's CPU budget as the poller sees it; mu orders the poller against
// the move's end, so a late poll never stops the next move.
type cpuWatch struct {
	mu      sync.Mutex
	timer   *time.Timer
	proc    *sandbox.Process
	armed   bool
	start   time.Duration // the cgroup's CPU reading when the request was sent
	limit   time.Duration
	wallEnd time.Time
	overCPU bool
}

// MeasuresCPU reports whether a cgroup counts the bot's CPU time (else ActCPU cannot be used).
func (s *Seat) MeasuresCPU() bool {
	if s.bot.rn == nil || s.bot.rn.proc == nil {
		return false
	}
	_, ok := s.bot.rn.proc.CPUTime()
	return ok
}

// ActCPU sends one request and waits for the answer while the bot's CPU time during the move
// stays under cpu and the move's wall time under wall. The CPU time is polled, more often as
// the budget runs out (never more than once per MinPoll), so a busy loop is stopped near its
// budget and a quick move costs two reads. An overrun kills the bot and returns ErrTimeout,
// like Act. The usage is returned whatever the outcome.
func (s *Seat) ActCPU(req *arenav1.ActRequest, cpu, wall time.Duration) (*arenav1.ActResponse, MoveUsage, error) {
	var u MoveUsage
	if !s.bot.Alive() {
		return nil, u, fmt.Errorf("%w: %s", ErrDead, s.bot.Why())
	}
	w := &s.watch
	proc := s.bot.rn.proc
	c0, _ := proc.CPUTime()
	t0 := time.Now()
	w.mu.Lock()
	if w.timer == nil {
		w.timer = time.AfterFunc(time.Hour, s.poll)
	}
	w.proc, w.start, w.limit, w.wallEnd, w.armed, w.overCPU = proc, c0, cpu, t0.Add(wall), true, false
	w.timer.Reset(nextPoll(cpu, wall))
	w.mu.Unlock()
	s.in.Act = req
	err := s.stream.Send(&s.in)
	var out *arenav1.ActStreamResponse
	if err == nil {
		out, err = s.stream.Recv()
	}
	w.mu.Lock()
	w.armed = false
	w.timer.Stop()
	overCPU := w.overCPU
	w.mu.Unlock()
	c1, _ := proc.CPUTime()
	u.Wall, u.CPU = time.Since(t0), c1-c0
	if s.timed.Load() || (err != nil && (u.CPU >= cpu || u.Wall >= wall)) {
		u.OverCPU = overCPU || u.CPU >= cpu
		why := fmt.Sprintf("no answer within the wall-time cap of %v", wall)
		if u.OverCPU {
			why = fmt.Sprintf("used %v of CPU time, over its limit of %v", u.CPU.Round(time.Microsecond), cpu)
		}
		s.bot.KillFor(sandbox.KindTimeLimit, why)
		return nil, u, ErrTimeout
	}
	if err != nil {
		return nil, u, s.broken(err)
	}
	return out.GetAct(), u, nil
}

// poll checks the running move: over its CPU limit or its wall cap, the move is stopped;
// otherwise the next reading is set for when the budget could run out at the earliest.
func (s *Seat) poll() {
	w := &s.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return
	}
	c, _ := w.proc.CPUTime()
	used, wallLeft := c-w.start, time.Until(w.wallEnd)
	if used >= w.limit || wallLeft <= 0 {
		w.overCPU, w.armed = used >= w.limit, false
		s.expire()
		return
	}
	w.timer.Reset(nextPoll(w.limit-used, wallLeft))
}

// nextPoll is when to read again: a bot cannot use CPU faster than the machine has cores, so
// left of budget cannot run out sooner than left/cores; never past the wall cap.
func nextPoll(left, wallLeft time.Duration) time.Duration {
	d := max(left/time.Duration(runtime.NumCPU()), MinPoll)
	return min(d, max(wallLeft, 0))
}
