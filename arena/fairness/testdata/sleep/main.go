// Command sleep sleeps forever from its move in round 3: the CPU clock must stop it at its
// wall cap (its own waiting) and charge it, however idle its CPU.
package main

import (
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "sleep", Author: "fairness", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				if len(s.Rounds)+1 >= 3 {
					time.Sleep(time.Hour)
				}
				return dynamite.Rock
			})
		})}})
}
