// Command stopper ignores SIGTERM, starts a child in its own process group, then stops itself
// with SIGSTOP in round 3.
package main

import (
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	child := exec.Command("sleep", "3600")
	_ = child.Start()
	sdk.Serve(sdk.Bot{Name: "stopper", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
		return dynamite.Func(func(s *dynamite.State) dynamite.Move {
			if s.Round == 3 {
				_ = syscall.Kill(syscall.Getpid(), syscall.SIGSTOP)
			}
			return dynamite.Paper
		})
	})}})
}
