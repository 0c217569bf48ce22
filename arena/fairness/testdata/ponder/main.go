// Command ponder spends 30 % of each move's budget in CPU time in its move, answers, then 90 %
// more in the background (pondering), which it finishes before it starts on its next move:
// only the pondering, charged to the next move, can put it over its budget. However slow the
// machine, between two answers it uses 120 % less what the previous pondering had done before
// the host's reading plus what this one does before the next: the charge comes by round 5.
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
			var pondered chan struct{} // closed once the last pondering is done
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				if pondered != nil {
					<-pondered
				}
				runtime.LockOSThread() // burn counts this thread's CPU only
				burn(s.Budget * 3 / 10)
				runtime.UnlockOSThread()
				done := make(chan struct{})
				pondered = done
				go func() {
					runtime.LockOSThread()
					burn(s.Budget * 9 / 10)
					close(done)
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
