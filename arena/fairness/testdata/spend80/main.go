// Command spend80 uses 80 % of each move's budget in CPU time, then plays rock: an honest bot
// the CPU clock must never charge, however busy the machine is.
package main

import (
	"syscall"
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "spend80", Author: "fairness", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				burn(s.Budget * 8 / 10)
				return dynamite.Rock
			})
		})}})
}

// burn spins until the process has used d more CPU time (its own, by getrusage).
func burn(d time.Duration) {
	end := cpuTime() + d
	for cpuTime() < end {
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
