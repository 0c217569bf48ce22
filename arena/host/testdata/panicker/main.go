// Command panicker panics inside its move in round 4; the SDK reports it as an exception.
package main

import "github.com/botarena/arena/sdk"

func main() {
	sdk.Serve(sdk.Bot{Name: "panicker", Dynamite: func() sdk.DynamitePlayer {
		return sdk.DynamiteFunc(func(s *sdk.DynamiteState) sdk.DynamiteMove {
			if s.Round == 4 {
				panic("panicker: deliberate failure in round 4")
			}
			return sdk.Rock
		})
	}})
}
