// Command flip is coin's house bot; see package coinbots.
package main

import (
	"math/rand/v2"

	coinbots "github.com/botarena/arena/bots/coin"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(coinbots.FlipSeeded(rand.Uint64())) }
