package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/botarena/arena/arena/match"
)

// TestClockFlagsWithoutCPUAccounting: on a machine that cannot count CPU time, auto is wall
// time (saying why); an explicit cpu is refused where this process plays every match itself,
// and stands where workers elsewhere may (the ones without it decline its matches).
func TestClockFlagsWithoutCPUAccounting(t *testing.T) {
	saved := cpuClock
	cpuClock = func() (bool, string) { return false, "no cgroup here (the test)" }
	defer func() { cpuClock = saved }()
	settle := func(args ...string) func(bool) (clockChoice, string, error) {
		f := pflag.NewFlagSet("t", pflag.ContinueOnError)
		clock := clockFlags(f)
		if err := f.Parse(args); err != nil {
			t.Fatal(err)
		}
		return func(alone bool) (clockChoice, string, error) {
			var warn strings.Builder
			c, err := clock(&warn, alone)
			return c, warn.String(), err
		}
	}
	for _, alone := range []bool{true, false} {
		c, warn, err := settle()(alone)
		if err != nil || c.Mode != match.ClockWall || !strings.Contains(warn, "no cgroup here (the test)") {
			t.Fatalf("auto (alone %v): %+v %q %v", alone, c, warn, err)
		}
	}
	if _, _, err := settle("--clock-mode", "cpu")(true); !errors.Is(err, ErrNoCPUClock) || !strings.Contains(err.Error(), "--clock-mode wall") {
		t.Fatalf("cpu, alone: %v", err)
	}
	c, warn, err := settle("--clock-mode", "cpu", "--wall-factor", "5")(false)
	if err != nil || c.Mode != match.ClockCPU || c.WallFactor != 5 || !strings.Contains(warn, "decline") {
		t.Fatalf("cpu with workers elsewhere: %+v %q %v", c, warn, err)
	}
}
