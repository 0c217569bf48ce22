package cli

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/pflag"

	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/tournament"
)

// ErrNoCPUClock means --clock-mode cpu was asked for on a machine whose cgroups cannot count a
// bot's CPU time.
var ErrNoCPUClock = tournament.ErrNoCPUClock

// clockChoice is how moves are timed, as the flags and the machine decide: the same flags on
// every command that plays matches (play, tournament, serve for the ladder, its validations
// and organisers' tournaments), and the choice travels in each match's config or job.
type clockChoice = tournament.Clock

// clockFlags adds --clock-mode, --wall-factor and --bank. The returned function settles the mode:
// "auto" (the default) is cpu where the sandbox's cgroups count a bot's CPU time and wall
// elsewhere, saying so on warn. An explicit cpu where they cannot is an error naming the fix
// when this process's workers are the only ones (alone); with workers elsewhere it stands,
// and only those that count CPU time play the matches (the others decline them).
func clockFlags(f *pflag.FlagSet) func(warn io.Writer, alone bool) (clockChoice, error) {
	var c clockChoice
	mode := f.String("clock-mode", "auto", "what a move's time is: cpu (the CPU time of the bot's own processes, so a busy "+
		"machine costs no bot anything), wall, or auto (cpu where cgroups count it; 'arena sandbox check' says)")
	rangeVar(f, &c.WallFactor, "wall-factor", match.DefaultWallFactor, 1, 100,
		"--clock-mode cpu: a move's wall-time cap, as a multiple of its budget (stops a bot that sleeps or blocks)")
	rangeVar(f, &c.Bank, "bank", 0, 0, time.Hour,
		"each seat's overage bank: a move may run past its budget by what is left of it (0: none)")
	return func(warn io.Writer, alone bool) (clockChoice, error) {
		ok, why := cpuClock()
		switch *mode {
		case "auto":
			c.Mode = match.ClockCPU
			if !ok {
				c.Mode = match.ClockWall
				fmt.Fprintf(warn, "clock: wall time, since this machine cannot count a bot's CPU time (%s); see 'arena sandbox check'", why)
				if !alone {
					fmt.Fprint(warn, " (--clock-mode cpu has the workers that can play the matches)")
				}
				fmt.Fprintln(warn)
			}
			return c, nil
		default:
			m, err := match.ParseClockMode(*mode)
			if err != nil {
				return c, fmt.Errorf("%w: --clock-mode: %v", ErrUsage, err)
			}
			if m == match.ClockCPU && !ok && !alone {
				fmt.Fprintf(warn, "clock: cpu; this machine cannot count a bot's CPU time (%s): its own workers decline the matches, workers that can play them\n", why)
			}
			if m == match.ClockCPU && !ok && alone {
				return c, fmt.Errorf("%w: --clock-mode cpu needs cgroup CPU accounting, which is missing (%s); "+
					"run the arena as root on a machine with cgroups ('arena sandbox check' says what is missing) or use --clock-mode wall",
					ErrNoCPUClock, why)
			}
			c.Mode = m
			return c, nil
		}
	}
}

// cpuClock reports whether bots' CPU time can be charged here, and why not (a variable: the
// flags' tests play a machine without it).
var cpuClock = tournament.CPUClock

// writeClockReport says which move clock a match gets by default here.
func writeClockReport(w io.Writer) {
	if ok, why := cpuClock(); ok {
		fmt.Fprintf(w, "move clock: cpu by default (each move is charged the CPU time of the bot's cgroup: %s)\n", why)
	} else {
		fmt.Fprintf(w, "move clock: wall time only (no cgroup counts a bot's CPU time: %s); a busy machine slows every bot's moves\n", why)
	}
}
