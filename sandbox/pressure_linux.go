//go:build !arenadegraded

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// CPUPressure is the time so far during which at least one process of the tree was ready to
// run but waited for a CPU (the "some" total of the cgroup's cpu.pressure): what a busy
// machine cost the bot, for a clock that does not charge it. ok is false when the kernel does
// not measure it for this process (no cgroup, no PSI: Probe's CPU line says which); the
// caller then falls back to the per-process run-queue delay.
func (p *Process) CPUPressure() (wait time.Duration, ok bool) {
	if p == nil || p.cg == nil || !p.plan.psi {
		return 0, false
	}
	d, ok := p.cg.dirs[cgCPU]
	if !ok {
		return 0, false
	}
	b, err := os.ReadFile(filepath.Join(d, "cpu.pressure"))
	if err != nil {
		return 0, false
	}
	return pressureTotal(b)
}

// pressureTotal reads the "some ... total=<us>" line of a PSI file.
func pressureTotal(b []byte) (time.Duration, bool) {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || f[0] != "some" {
			continue
		}
		for _, kv := range f[1:] {
			if v, found := strings.CutPrefix(kv, "total="); found {
				n, err := strconv.ParseUint(v, 10, 64)
				if err != nil {
					return 0, false
				}
				return time.Duration(n) * time.Microsecond, true
			}
		}
	}
	return 0, false
}
