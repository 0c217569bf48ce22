package selfcpu

import (
	"testing"
	"time"
)

// Spinning shows as CPU time used, at least the spin's own thread's.
func TestUsedCountsASpin(t *testing.T) {
	c0 := Used()
	for Used()-c0 < 20*time.Millisecond {
	}
	if d := Used() - c0; d < 20*time.Millisecond || d > time.Minute {
		t.Fatalf("a 20 ms spin counted %v", d)
	}
}
