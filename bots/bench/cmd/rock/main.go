// Command rock is the trivial Go bot of the benchmark; see package benchbots.
package main

import (
	benchbots "github.com/botarena/arena/bots/bench"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(benchbots.Rock()) }
