//go:build !linux || arenadegraded

package sandbox

import "time"

// RunQueueDelay is not measured here: no cgroup lists the bot's threads. The CPU clock then
// charges a move its whole wall time against the wall cap.
func (p *Process) RunQueueDelay() (time.Duration, bool) { return 0, false }
