// Command sleeper answers two rounds, then sleeps far past any deadline.
package main

import (
	"time"

	"github.com/botarena/arena/sdk"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "sleeper", Dynamite: func() sdk.DynamitePlayer {
		return sdk.DynamiteFunc(func(s *sdk.DynamiteState) sdk.DynamiteMove {
			if s.Round >= 3 {
				time.Sleep(time.Hour)
			}
			return sdk.Rock
		})
	}})
}
