// Command ponder spends 30 % of each move's budget in CPU time in its move, answers, then 90 %
// more in the background before its next request (pondering): only the pondering, charged to
// the next move, can put it over its budget.
package main

import (
	"runtime"
	"syscall"
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "ponder", Author: "fairness", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				runtime.LockOSThread() // burn counts this thread's CPU only
				burn(s.Budget * 3 / 10)
				runtime.UnlockOSThread()
				go func() {
					runtime.LockOSThread()
					burn(s.Budget * 9 / 10)
				}()
				return dynamite.Rock
			})
		})}})
}

// burn spins until its thread has used d more CPU time (by getrusage: the move's burn and
// the pondering's must not count each other's).
func burn(d time.Duration) {
	end := cpuTime() + d
	for cpuTime() < end {
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
