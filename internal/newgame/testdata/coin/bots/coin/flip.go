// Package coinbots holds coin's house bot, Flip, an sdk.Bot written with the Go SDK's generic
// path (sdk/anygame), so the game needs no SDK package of its own; cmd/flip serves it as its
// own process and bots/house plays it in the host's.
package coinbots

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/anygame"
)

// FlipSeeded calls a side at random from its seed (on a fair coin no bot does better).
func FlipSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "flip", Author: "house", Version: "1",
		Games: []sdk.Game{anygame.Play("coin", func() anygame.Player {
			r := rand.New(rand.NewPCG(seed, 1))
			return anygame.Func(func(*anygame.State) ([]byte, error) {
				return json.Marshal(map[string]string{"call": [...]string{"COIN_SIDE_HEADS", "COIN_SIDE_TAILS"}[r.IntN(2)]})
			})
		})}}
}
