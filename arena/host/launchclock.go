package host

import (
	"fmt"
	"sync"
	"time"

	"github.com/botarena/arena/sandbox"
)

// launchWatch holds a launch to its allowance the way the CPU clock holds a move: from the
// moment the bot's process runs (the host's fork and sandbox set-up are not counted) until
// Describe has answered, the bot may use allow of CPU time and allow of its own time (wall
// time minus its threads' run-queue delay: a busy machine is not counted). A launch still
// unfinished at StallFactor x allow of wall time, within both, was stalled by the machine
// (ErrStalled). Where no cgroup counts the bot's CPU, allow is wall time, as before.
type launchWatch struct {
	proc  *sandbox.Process
	allow time.Duration
	// rq counts the launch's run-queue delay at every check, so that threads that came and
	// went (a thread pool growing under load) keep their waits (nil: not measurable here).
	rq *sandbox.RunQueueMeter
	// hostsTurn says whether the bot's first line has reached the host (read, or waiting in
	// the pipe): the launch's time since then is the host's, never charged as the bot's.
	hostsTurn func() bool
	t0        time.Time
	stop      chan struct{}
	once      sync.Once
	mu        sync.Mutex
	err       error
	// tripped is closed when a limit has run out (err says which); the bot is being killed.
	tripped chan struct{}
}

// launchInterval is how often a launch is checked: often enough that an overrun is noticed
// within a twentieth of the allowance, never more than every 5 ms.
func launchInterval(allow time.Duration) time.Duration {
	return min(max(allow/20, 5*time.Millisecond), 250*time.Millisecond)
}

func watchLaunch(proc *sandbox.Process, allow time.Duration, hostsTurn func() bool) *launchWatch {
	w := &launchWatch{proc: proc, allow: allow, hostsTurn: hostsTurn, t0: time.Now(), stop: make(chan struct{}), tripped: make(chan struct{})}
	w.rq = proc.NewRunQueueMeter()
	go w.run()
	return w
}

func (w *launchWatch) run() {
	tick := time.NewTicker(launchInterval(w.allow))
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		if err := w.check(); err != nil {
			w.mu.Lock()
			w.err = err
			w.mu.Unlock()
			close(w.tripped)
			return
		}
	}
}

// check reads the launch's figures: its run-queue delay at every check (see rq), the rest
// only once its wall time has passed the allowance.
func (w *launchWatch) check() error {
	wall := time.Since(w.t0)
	q, runq := w.rq.Read()
	cpu, ok := w.proc.CPUTime()
	if !ok {
		if wall >= w.allow {
			return fmt.Errorf("%w within its start-up allowance of %v (wall time: no cgroup counts its CPU here)", ErrNoHandshake, w.allow)
		}
		return nil
	}
	u := MoveUsage{CPU: cpu, Wall: wall, Own: wall}
	if cpu >= w.allow {
		return fmt.Errorf("%w: used %v of CPU time starting, over its start-up allowance of %v (%s)", ErrNoHandshake, round(cpu), w.allow, u.Figures())
	}
	if wall < w.allow {
		return nil
	}
	runnable := 0
	if runq {
		u.RunQueue = min(q.Delay, wall)
		u.Own = wall - u.RunQueue
		runnable = q.Runnable
	}
	switch {
	case u.Own >= w.allow && runnable == 0 && !w.hostsTurn():
		// (A runnable thread's wait for a CPU is counted only once it gets one: while one
		// is runnable the bot is not waiting by choice, and the next check counts it. A bot
		// that printed its line waits for the host, however late the host reads it.)
		return fmt.Errorf("%w within its start-up allowance of %v of its own time (%s; its threads now: %s)", ErrNoHandshake, w.allow, u.Figures(), w.proc.ThreadWaits())
	case wall >= StallFactor*w.allow:
		return fmt.Errorf("%w: the machine stalled its start (%s); charged to no bot", ErrStalled, u.Figures())
	}
	return nil
}

// tripErr is why the launch was stopped (nil while it was not).
func (w *launchWatch) tripErr() error {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// done ends the watch (the launch finished or failed).
func (w *launchWatch) done() {
	if w != nil {
		w.once.Do(func() { close(w.stop) })
	}
}
