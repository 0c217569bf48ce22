// Command realtv is the smallest readable Real TV bot script: it never betrays, and votes out
// the weakest player who is not itself.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/realtv"
)

// weakestOther is the weakest player of the group other than me ("" if there is none).
func weakestOther(group map[string]*realtv.PlayerContext, me string) string {
	var pick *realtv.PlayerContext
	for _, p := range realtv.Sorted(group) { // sorted by id: the same choice every run
		if p.ID != me && (pick == nil || p.Strength < pick.Strength) {
			pick = p
		}
	}
	return realtv.IDOf(pick)
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-realtv", Games: []sdk.Game{realtv.Play(func(setup realtv.Setup) realtv.Player {
		// One value per instance: the contest makes 11 of them (strengths 0..10) in this process.
		return realtv.Funcs{
			Elimination: func(ctx *realtv.Context) string { return weakestOther(ctx.ActivePlayers, setup.ID) },
			Tie: func(ctx *realtv.Context) string {
				if v := weakestOther(ctx.CurrentTies, setup.ID); v != "" {
					return v
				}
				return setup.ID // only I am left in the tie
			},
		}
	})}})
}
