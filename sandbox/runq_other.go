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

// RunQueueMeter is not measured here (see the Linux build).
type RunQueueMeter struct{}

// NewRunQueueMeter has no reading here: it returns nil.
func (p *Process) NewRunQueueMeter() *RunQueueMeter { return nil }

// Read has no reading here.
func (m *RunQueueMeter) Read() (RunQueue, bool) { return RunQueue{}, false }

// ThreadWaits has nothing to say here.
func (p *Process) ThreadWaits() string { return "" }
