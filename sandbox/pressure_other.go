//go:build !linux || arenadegraded

package sandbox

import "time"

// CPUPressure is not measured by the degraded sandbox (no cgroups).
func (p *Process) CPUPressure() (time.Duration, bool) { return 0, false }
