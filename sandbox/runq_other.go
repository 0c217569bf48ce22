//go:build !linux || arenadegraded

package sandbox

import "time"

// RunQueue is not measured here (see the Linux build).
type RunQueue struct {
	Delay    time.Duration
	Runnable int
}

// ReadRunQueue is not measured here: no cgroup lists the bot's threads. The CPU clock then
// charges a move its whole wall time against the wall cap.
func (p *Process) ReadRunQueue() (RunQueue, bool) { return RunQueue{}, false }

// RunQueueDelay is not measured here (see ReadRunQueue).
func (p *Process) RunQueueDelay() (time.Duration, bool) { return 0, false }
