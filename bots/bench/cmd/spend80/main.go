// Command spend80 uses 80 % of each move's budget in CPU time; see benchbots.Spend.
package main

import (
	benchbots "github.com/botarena/arena/bots/bench"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(benchbots.Spend(0.8)) }
