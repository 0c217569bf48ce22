// Command exiter writes a last word to stderr and exits in round 5.
package main

import (
	"fmt"
	"os"

	"github.com/botarena/arena/sdk"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "exiter", Dynamite: func() sdk.DynamitePlayer {
		return sdk.DynamiteFunc(func(s *sdk.DynamiteState) sdk.DynamiteMove {
			if s.Round == 5 {
				fmt.Fprintln(os.NewFile(2, "stderr"), "exiter: about to die in round 5")
				os.Exit(3)
			}
			return sdk.Rock
		})
	}})
}
