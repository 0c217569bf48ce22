// Command sleeper answers two rounds, then sleeps far past any deadline.
package main

import (
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "sleeper", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
		return dynamite.Func(func(s *dynamite.State) dynamite.Move {
			if s.Round >= 3 {
				time.Sleep(time.Hour)
			}
			return dynamite.Rock
		})
	})}})
}
