package realtvbots

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/realtv"
)

// LikesThemStrong always votes for the weakest active player, itself included (so the
// weakest instance betrays), and for the weakest of a tie. Among equals it takes the smallest
// id (the seed's min() took the first in the island's order).
func LikesThemStrong() sdk.Bot {
	return sdk.Bot{Name: "LikesThemStrong", Author: "house (seed)", Version: "1",
		Games: []sdk.Game{realtv.Play(func(realtv.Setup) realtv.Player {
			return realtv.Funcs{
				Elimination: func(ctx *realtv.Context) string { return realtv.IDOf(realtv.Weakest(ctx.ActivePlayers)) },
				Tie:         func(ctx *realtv.Context) string { return realtv.IDOf(realtv.Weakest(ctx.CurrentTies)) },
			}
		})}}
}

// Filler plays the engine's filler bots as a script: the weakest of the candidates 80% of the
// time and the strongest 20%, itself included, for both votes.
func Filler() sdk.Bot { return FillerSeeded(rand.Uint64()) }

// FillerSeeded is Filler with a fixed seed, for reproducible tests.
func FillerSeeded(seed uint64) sdk.Bot {
	var seats atomic.Uint64
	return sdk.Bot{Name: "Filler", Author: "house (seed)", Version: "1",
		Games: []sdk.Game{realtv.Play(func(realtv.Setup) realtv.Player {
			r := rand.New(rand.NewPCG(seed, seats.Add(1)))
			pick := func(from map[string]*realtv.PlayerContext) string {
				if r.Float64() < 0.8 {
					return realtv.IDOf(realtv.Weakest(from))
				}
				return realtv.IDOf(realtv.Strongest(from))
			}
			return realtv.Funcs{
				Elimination: func(ctx *realtv.Context) string { return pick(ctx.ActivePlayers) },
				Tie:         func(ctx *realtv.Context) string { return pick(ctx.CurrentTies) },
			}
		})}}
}
