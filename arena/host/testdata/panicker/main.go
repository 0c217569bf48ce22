// Command panicker panics inside its move in round 4; the SDK reports it as an exception.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "panicker", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
		return dynamite.Func(func(s *dynamite.State) dynamite.Move {
			if s.Round == 4 {
				panic("panicker: deliberate failure in round 4")
			}
			return dynamite.Rock
		})
	})}})
}
