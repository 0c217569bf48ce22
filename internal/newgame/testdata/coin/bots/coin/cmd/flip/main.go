// Command flip is coin's house bot; see coin.Flip.
package main

import (
	"math/rand/v2"

	"github.com/botarena/arena/arena/games/coin"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(coin.Flip(rand.Uint64())) }
