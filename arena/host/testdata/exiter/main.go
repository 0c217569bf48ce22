// Command exiter writes a last word to stderr and exits in round 5.
package main

import (
	"fmt"
	"os"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

func main() {
	sdk.Serve(sdk.Bot{Name: "exiter", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
		return dynamite.Func(func(s *dynamite.State) dynamite.Move {
			if s.Round == 5 {
				fmt.Fprintln(os.NewFile(2, "stderr"), "exiter: about to die in round 5")
				os.Exit(3)
			}
			return dynamite.Rock
		})
	})}})
}
