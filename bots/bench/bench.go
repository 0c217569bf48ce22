package benchbots

import (
	"syscall"
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

// Rock always plays rock: two of them draw every round, so a dynamite match runs to its round cap.
func Rock() sdk.Bot {
	return sdk.Bot{Name: "rock", Author: "bench", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Rock })
		})}}
}

// Spend uses frac of each move's budget in CPU time (its own process's, by getrusage), then
// plays rock: under the CPU clock it must never time out, however busy the machine is.
func Spend(frac float64) sdk.Bot {
	return sdk.Bot{Name: "spend", Author: "bench", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				burn(time.Duration(frac * float64(s.Budget)))
				return dynamite.Rock
			})
		})}}
}

// Spin busy-loops forever from its move in round from on: the CPU clock must stop it near its
// budget and charge it.
func Spin(from int) sdk.Bot {
	return sdk.Bot{Name: "spin", Author: "bench", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				if len(s.Rounds)+1 >= from {
					burn(time.Duration(1<<62 - 1))
				}
				return dynamite.Rock
			})
		})}}
}

// burn spins until the process has used d more CPU time.
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
