package host

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sandbox"
)

// ErrStalled means the machine kept the bot from running (game.ErrStalled): the move passed
// its stall limit while the bot had neither spent its CPU budget nor waited out its wall cap.
var ErrStalled = game.ErrStalled

// StallFactor is the machine's limit on a move under the CPU clock, as a multiple of the
// move's wall cap: a move that takes this much wall time while its bot's own time (its wall
// time minus its threads' run-queue delay) is still under the cap was stalled by the machine.
// The bot is stopped, charged nothing, and the match is voided (ErrStalled). A bot running on
// a third of a core answers an 80 % move in 2.4 x its budget; this is 30 x at the default.
const StallFactor = 10

// Cause says which limit stopped a move (or a start).
type Cause int

// The causes.
const (
	// CauseNone: the move answered in time (or failed another way).
	CauseNone Cause = iota
	// CauseCPU: its CPU time passed its budget (pondering included).
	CauseCPU
	// CauseWait: its own time (wall time minus run-queue delay) passed the wall cap: the bot
	// slept or blocked.
	CauseWait
	// CauseMachine: the move passed the stall limit while the bot waited for a CPU.
	CauseMachine
)

func (c Cause) String() string {
	switch c {
	case CauseCPU:
		return "CPU budget"
	case CauseWait:
		return "its own waiting"
	case CauseMachine:
		return "the machine"
	}
	return "none"
}

// MoveUsage is what one move used: its bot's CPU time (the cgroup's reading at the answer
// minus the reading at its previous answer, so CPU used between moves, pondering, is charged
// to the next move), its wall time, and the part of the wall time its threads spent waiting
// for a CPU.
type MoveUsage struct {
	CPU, Wall time.Duration
	// RunQueue is the run-queue delay of the bot's threads during the move, read lazily: from
	// the first poll after the move's wall time passed its CPU budget (0 for quicker moves,
	// and an under-estimate by at most that budget: the missed part is charged as the bot's).
	RunQueue time.Duration
	// Own is what the wall cap counts: Wall minus RunQueue.
	Own time.Duration
	// Cause is the limit that stopped the move (CauseNone when it answered).
	Cause Cause
	// OverCPU is Cause == CauseCPU (kept for callers that only ask that).
	OverCPU bool
	// Parts, for a move over its CPU budget, says what the tree's two named processes used
	// since the previous answer (see partsSince): whose CPU the charge was.
	Parts string
}

// Wait is the bot's voluntary waiting in the move: its own time not spent on a CPU.
func (u MoveUsage) Wait() time.Duration { return max(u.Own-u.CPU, 0) }

// Figures says what the move used, for a timeout's text: CPU, own waiting, run-queue delay and
// the share of a CPU the bot got over its wall time.
func (u MoveUsage) Figures() string {
	share := 0.0
	if u.Wall > 0 {
		share = 100 * float64(u.CPU) / float64(u.Wall)
	}
	f := fmt.Sprintf("CPU %v, own waiting %v, run-queue delay %v, wall %v, CPU share %.0f%%",
		round(u.CPU), round(u.Wait()), round(u.RunQueue), round(u.Wall), share)
	if u.Parts != "" {
		f += "; " + u.Parts
	}
	return f
}

func round(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// MinPoll is the shortest gap between two CPU readings while a move runs: how far past its
// budget a busy bot can get before it is stopped (plus the kernel's accounting lag of up to
// one scheduler tick).
const MinPoll = time.Millisecond

// clockWatch watches one running move (or Start) under the CPU clock: its CPU time against
// limit, its own time (wall minus run-queue delay) against cap, its wall time against the
// stall limit. mu orders the poller against the move's end, so a late poll never stops the
// next move.
//
// What the machine causes is never the bot's own time: the wait for the request to reach it
// (the host's writer, a bridge, the bot's wake-up all waiting for a CPU), its threads' waits
// for a CPU (finished ones from schedstat, and a wait still going on while a thread is
// runnable), and the host's own lateness (its polls running late). What is left, the bot's
// sleeping or blocking, is capped.
type clockWatch struct {
	mu    sync.Mutex
	timer *time.Timer
	proc  *sandbox.Process
	stop  func()
	armed bool
	t0    time.Time
	// c0 is the CPU reading the move is charged from; limit its CPU budget; seen the latest
	// reading (a move stopped for its budget removes the cgroup before end reads it again).
	c0, limit, seen time.Duration
	// cBegin is the tree's CPU reading when the request was sent: the bot has started on the
	// move once the tree's CPU time moves past it (started). The tree's, a stdio bridge
	// included: the bridge passing the request on is the bot's side taking it.
	cBegin  time.Duration
	started bool
	// cap is the wall cap on the bot's own time; stall the wall time at which the machine is
	// blamed.
	cap, stall time.Duration
	// based is set once the run queue has been read (the meter made at wall time w0); rq is
	// the delay since then as last read, runq whether it can be read at all. It is the bot's
	// threads' delay only: the host's, summed over a busy host's threads, exceeds the wall
	// time, and a sleeper would then look stalled by the machine.
	based, runq bool
	meter       *sandbox.RunQueueMeter
	rq, w0      time.Duration
	// c0base is the move's CPU time when the baseline was read.
	c0base time.Duration
	// due is when the next poll should run; hostLag sums how late polls ran: the host's own
	// wait for a CPU, which delays the request and the answer as much as the poll.
	due     time.Time
	hostLag time.Duration
	cause   Cause
	// over is set by a poll that found the bot's own time past its cap: the next poll, a
	// recheck later, charges it if it still is (an answer that had arrived as the first poll
	// ran, unread while the host waited for a CPU, ends the move in between).
	over bool
	// parts are the named processes' CPU times when a poll found the budget spent (partsOK).
	parts   sandbox.CPUParts
	partsOK bool
	// pending, where the move's transport can tell, reports that the bot has written an
	// answer the host has not read yet: the host is late, not the bot (see answerPending).
	pending func() bool
}

// written is what a transport calls once the request's last byte is in the bot's socket (its
// write returned): from then on the bot has its request, and its waiting is its own. Without
// it the clock takes the bot's first CPU time after the request was sent as the moment (a
// bot that uses none is charged at the stall limit once the host's polls show that the host
// was not starved).
func (w *clockWatch) written() {
	w.mu.Lock()
	w.started = true
	w.mu.Unlock()
}

// answerPending sets how the clock asks the move's transport whether an answer is waiting unread
// (nil: it cannot tell). A poll that finds the bot's own time past its cap does not charge
// it while one is.
func (w *clockWatch) answerPending(f func() bool) {
	w.mu.Lock()
	w.pending = f
	w.mu.Unlock()
}

// begin arms the watch for a move charged from CPU reading c0. A transport that calls written
// (tells) needs no CPU reading here: the bot has started once its request is written, and
// the move then costs the one reading at its end.
func (w *clockWatch) begin(proc *sandbox.Process, c0, limit, cap time.Duration, stop func(), tells bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer == nil {
		w.timer = time.AfterFunc(time.Hour, w.poll)
	}
	w.proc, w.stop, w.t0, w.c0, w.limit, w.cap, w.seen = proc, stop, time.Now(), c0, limit, cap, c0
	if tells {
		w.cBegin = math.MaxInt64 // started only by written
	} else {
		w.cBegin, _ = proc.TreeCPUTime()
	}
	w.stall = cap * StallFactor
	w.armed, w.based, w.runq, w.meter, w.rq, w.w0, w.cause = true, false, true, nil, 0, 0, CauseNone
	w.started, w.hostLag, w.over, w.partsOK = false, 0, false, false
	w.arm(nextPoll(limit, limit))
}

// end disarms the watch and says what the move used (one CPU reading; one run-queue reading
// more for a move that had passed its budget in wall time).
func (w *clockWatch) end() MoveUsage {
	w.mu.Lock()
	w.armed = false
	w.timer.Stop()
	c1, ok := w.proc.CPUTime()
	if !ok {
		// The cgroup is gone (the bot was stopped and its tree removed): the last reading.
		c1 = w.seen
	}
	u := MoveUsage{Wall: time.Since(w.t0), CPU: max(c1-w.c0, 0), Cause: w.cause}
	// The run queue as of now, for an answer or a CPU overrun; a move stopped for its own
	// waiting or by the machine keeps the reading it was stopped on.
	if w.based && (w.cause == CauseNone || w.cause == CauseCPU) {
		if q, ok := w.meter.Read(); ok {
			w.rq = q.Delay
		}
	}
	u.RunQueue = min(w.rq+w.late(u.Wall, u.CPU)+w.hostLag, u.Wall)
	if w.cause == CauseWait && !w.based {
		u.RunQueue = min(w.hostLag, u.Wall) // it never read its request: see poll
	}
	w.mu.Unlock()
	u.Own = u.Wall - u.RunQueue
	u.OverCPU = u.Cause == CauseCPU
	return u
}

// recheck is how soon a poll looks again at a move whose own time cannot be told yet: the
// bot has not started on it, or a thread of it is runnable (its wait is not counted yet).
func (w *clockWatch) recheck() time.Duration { return max(w.limit/8, MinPoll) }

// poll checks the running move and stops it at the first limit it has passed; otherwise it
// sets the next reading for when a limit could be reached at the earliest. The run queue is
// read only past the move's CPU budget in wall time (a baseline, once the bot has started on
// the move) and past its wall cap.
func (w *clockWatch) poll() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.armed {
		return
	}
	if late := time.Since(w.due); late > 0 {
		w.hostLag += late
	}
	c, ok := w.proc.CPUTime()
	if !ok {
		c = w.seen
	}
	w.seen = c
	used, wall := c-w.c0, time.Since(w.t0)
	if used >= w.limit {
		w.expire(CauseCPU)
		return
	}
	if !w.started {
		t, _ := w.proc.TreeCPUTime()
		w.started = t > w.cBegin
	}
	if !w.based && wall >= w.limit && w.runq && w.started {
		w.meter = w.proc.NewRunQueueMeter()
		w.runq = w.meter != nil
		w.based, w.w0, w.c0base = true, wall, used
	}
	own, runnable := wall, 0
	switch {
	case w.runq && !w.based:
		// Not started (or quicker than its budget so far): all of it is before the baseline.
		own = wall - w.late(wall, used)
	case w.based && wall >= w.cap:
		if q, ok := w.meter.Read(); ok {
			w.rq, runnable = q.Delay, q.Runnable
		}
		own = wall - min(w.rq+w.late(wall, used)+w.hostLag, wall)
	}
	// Past its cap with no thread waiting for a CPU and no answer waiting for the host: the bot
	// is waiting by its own choice, charged at the second such poll in a row.
	overCap := own >= w.cap && runnable == 0 && (w.pending == nil || !w.pending())
	confirmed := overCap && w.over
	w.over = overCap
	switch {
	case confirmed:
		w.expire(CauseWait)
		return
	case wall >= w.stall && !w.started && w.hostLag < w.stall/2 && w.idle():
		// Never started while the host's own polls ran on time at least half the time (its
		// writer had ample chances to send the request) and no thread of the bot waits for a
		// CPU: the request was there to be read, and the bot did not read it.
		w.expire(CauseWait)
		return
	case wall >= w.stall:
		w.expire(CauseMachine)
		return
	}
	// The next wall event: the baseline at the budget, the cap, then the earliest the bot's
	// own time can reach the cap, and never past the stall limit.
	next := w.cap - own
	switch {
	case !w.based && w.runq:
		// Waiting for the baseline, or for the bot to start: every half budget (how late
		// polls run is the host's lateness, and frequent polls would add up their timers'
		// ordinary slack as if it were).
		next = max(w.limit-wall, w.limit/2)
	case runnable > 0 || own >= w.cap:
		next = w.recheck()
	}
	next = min(next, w.stall-wall)
	w.arm(nextPoll(w.limit-used, max(next, MinPoll)))
}

// idle reports whether no thread of the bot is runnable now.
func (w *clockWatch) idle() bool {
	q, ok := w.proc.ReadRunQueue()
	return ok && q.Runnable == 0
}

// late is the part of the wall time before the baseline that is not counted as the bot's:
// all of it but the CPU time the bot used by then. The run queue is read only once a move's
// wall time passes its budget and the bot has started on it (lazily: quick moves never read
// it), so what came before is not known; counting it as the machine's, not the bot's, keeps
// every honest bot uncharged (a bot that sleeps gets at most one budget more before its cap,
// and is charged then). Before the baseline (wall and used are the move's figures now) all
// of it is.
func (w *clockWatch) late(wall, used time.Duration) time.Duration {
	switch {
	case !w.runq:
		return 0
	case !w.based:
		return max(wall-used, 0)
	}
	return max(w.w0-w.c0base, 0)
}

// arm sets the next poll.
func (w *clockWatch) arm(d time.Duration) {
	w.due = time.Now().Add(d)
	w.timer.Reset(d)
}

func (w *clockWatch) expire(c Cause) {
	w.armed, w.cause = false, c
	if c == CauseCPU {
		w.parts, w.partsOK = w.proc.CPUParts() // before the stop ends the processes
	}
	w.stop()
}

// nextPoll is when to read again: a bot cannot use CPU faster than the machine has cores, so
// left of budget cannot run out sooner than left/cores; never past the next wall event.
func nextPoll(left, wallLeft time.Duration) time.Duration {
	d := max(left/time.Duration(runtime.NumCPU()), MinPoll)
	return min(d, max(wallLeft, 0))
}

// cpuMark is the bot's CPU reading at its last answer (or its Start), from which its next
// move is charged: CPU used between moves is charged to the next one. -1: none yet.
type cpuMark struct{ v atomic.Int64 }

func (m *cpuMark) get(proc *sandbox.Process) time.Duration {
	if v := m.v.Load(); v >= 0 {
		return time.Duration(v)
	}
	c, _ := proc.CPUTime()
	return c
}

// set keeps the later of two readings (seats of one process answer in any order).
func (m *cpuMark) set(c time.Duration) {
	for {
		v := m.v.Load()
		if int64(c) <= v || m.v.CompareAndSwap(v, int64(c)) {
			return
		}
	}
}

// MeasuresCPU reports whether a cgroup counts the bot's CPU time (else ActCPU cannot be used).
func (s *Seat) MeasuresCPU() bool { return s.bot.MeasuresCPU() }

// MeasuresCPU reports whether a cgroup counts the bot's CPU time.
func (b *Bot) MeasuresCPU() bool {
	if b.rn == nil || b.rn.proc == nil {
		return false
	}
	return b.rn.proc.CountsCPU()
}

// ActCPU sends one request and waits for the answer while the bot's CPU time, counted from its
// previous answer, stays under cpu, and its own time in the move (wall time minus the time its
// threads waited for a CPU) under wall. The CPU time is polled, more often as the budget runs
// out (never more than once per MinPoll), so a busy loop is stopped near its budget, and a
// quick move costs one reading. An overrun kills the bot and returns ErrTimeout; a move the
// machine stalled (StallFactor) kills it and returns ErrStalled. The usage is returned
// whatever the outcome.
func (s *Seat) ActCPU(req *arenav1.ActRequest, cpu, wall time.Duration) (*arenav1.ActResponse, MoveUsage, error) {
	if !s.bot.Alive() {
		return nil, MoveUsage{}, fmt.Errorf("%w: %s", ErrDead, s.bot.Why())
	}
	if s.OnLane() {
		return s.actLane(req, cpu, wall, true)
	}
	proc := s.bot.rn.proc
	s.watch.begin(proc, s.bot.mark.get(proc), cpu, wall, s.expire, false)
	s.in.Act = req
	err := s.stream.Send(&s.in)
	var out *arenav1.ActStreamResponse
	if err == nil {
		out, err = s.stream.Recv()
	}
	u := s.watch.end()
	return s.cpuResult(out.GetAct(), u, err, s.timed.Load(), cpu, wall)
}

// cpuResult is a move's outcome under the CPU clock, on either lane: its answer, or the limit
// that stopped it (timed: the poller stopped it), the bot killed with the figures.
func (s *Seat) cpuResult(resp *arenav1.ActResponse, u MoveUsage, err error, timed bool, cpu, wall time.Duration) (*arenav1.ActResponse, MoveUsage, error) {
	if err == nil && !timed {
		s.bot.mark.set(u.CPU + s.watch.c0)
		s.bot.markParts()
		return resp, u, nil
	}
	if u.Cause == CauseNone && err != nil {
		// The answer failed as a limit ran out between two polls.
		switch {
		case u.CPU >= cpu:
			u.Cause = CauseCPU
		case u.Own >= wall:
			u.Cause = CauseWait
		}
		u.OverCPU = u.Cause == CauseCPU
	}
	switch u.Cause {
	case CauseCPU:
		u.Parts = s.bot.partsSince(s.watch.parts, s.watch.partsOK)
		s.bot.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("used %v of CPU time, over its limit of %v (%s)", round(u.CPU), cpu, u.Figures()))
		return nil, u, ErrTimeout
	case CauseWait:
		s.bot.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("no answer within the wall-time cap of %v on its own time (%s)", wall, u.Figures()))
		return nil, u, ErrTimeout
	case CauseMachine:
		s.bot.Kill(fmt.Sprintf("stopped by the arena: the machine stalled its move (%s); charged to no bot", u.Figures()))
		return nil, u, fmt.Errorf("%w: a move of %v wall time got %s", ErrStalled, wall*StallFactor, u.Figures())
	}
	return nil, u, s.broken(err)
}

// markParts keeps the CPU time of the tree's named processes at an answer (two clock reads),
// from which partsSince reports.
func (b *Bot) markParts() {
	if p, ok := b.rn.proc.CPUParts(); ok {
		b.parts.Store(&p)
	}
}

// partsSince says what the main program and the sandbox init used from the last answer to now
// (read at the poll that stopped the move, ok; else now), for the report of a move charged over
// its budget: a charge the bot's own count does not explain then says whose CPU it was ("" where
// it cannot be read).
func (b *Bot) partsSince(now sandbox.CPUParts, ok bool) string {
	last := b.parts.Load()
	if !ok {
		now, ok = b.rn.proc.CPUParts()
	}
	if last == nil || !ok {
		return ""
	}
	main := "its main process"
	if now.Front {
		main = "the arena's stdio bridge (not charged)"
	}
	return fmt.Sprintf("from its previous answer to the reading that stopped it, %s used %v, the sandbox init %v", main, round(now.Main-last.Main), round(now.Init-last.Init))
}
