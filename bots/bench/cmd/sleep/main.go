// Command sleep sleeps forever from its move in round 3; see benchbots.Sleep.
package main

import (
	benchbots "github.com/botarena/arena/bots/bench"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(benchbots.Sleep(3)) }
