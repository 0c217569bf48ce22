package tournament

import (
	"errors"
	"time"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/sandbox"
)

// Clock is how a match's moves are timed: the mode, the CPU clock's wall-time cap (a multiple
// of a move's limit) and each seat's overage bank. Every way a match is played (arena play,
// a tournament direct or queued, a worker, the ladder and its validations, an organiser's
// tournament) takes it from the same flags (arena/cli's clockFlags, which settle "auto") and
// carries it in the tournament's Config or the queued job's, so a match plays on the clock its
// coordinator chose wherever it runs, and records it.
type Clock struct {
	Mode       match.ClockMode
	WallFactor float64
	Bank       time.Duration
}

// SetClock fixes the config's clock.
func (c *Config) SetClock(k Clock) {
	c.Clock, c.WallFactor, c.Bank = string(k.Mode), k.WallFactor, k.Bank
}

// ClockSetting is the config's clock.
func (c Config) ClockSetting() Clock {
	return Clock{Mode: c.ClockMode(), WallFactor: c.WallFactor, Bank: c.Bank}
}

// ErrNoCPUClock means the CPU clock was asked for on a machine whose cgroups cannot count a
// bot's CPU time: a worker declines such a job, a command refuses the flag.
var ErrNoCPUClock = errors.New("the CPU clock is not available here")

// CPUClock reports whether bots' CPU time can be charged on this machine, and why not: the
// one place that decides it (the sandbox's cgroup cpu layer, which includes the CPU time
// accounting).
func CPUClock() (bool, string) {
	l, _ := sandbox.Probe().Layer(sandbox.LayerCPU)
	return l.Active, l.Detail
}
