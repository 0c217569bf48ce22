// Command realtv is the smallest readable Real TV bot script: it never betrays, and votes out
// the weakest player who is not itself.
package main

import "github.com/botarena/arena/sdk"

// weakestOther is the weakest player of the group other than me ("" if there is none).
func weakestOther(group map[string]*sdk.RealtvPlayerContext, me string) string {
	var pick *sdk.RealtvPlayerContext
	for _, p := range sdk.Sorted(group) { // sorted by id: the same choice every run
		if p.ID != me && (pick == nil || p.Strength < pick.Strength) {
			pick = p
		}
	}
	return sdk.IDOf(pick)
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-realtv", Realtv: func(setup sdk.RealtvSetup) sdk.RealtvPlayer {
		// One value per instance: the contest makes 11 of them (strengths 0..10) in this process.
		return sdk.RealtvFuncs{
			Elimination: func(ctx *sdk.RealtvContext) string { return weakestOther(ctx.ActivePlayers, setup.ID) },
			Tie: func(ctx *sdk.RealtvContext) string {
				if v := weakestOther(ctx.CurrentTies, setup.ID); v != "" {
					return v
				}
				return setup.ID // only I am left in the tie
			},
		}
	}})
}
