// Command spin busy-loops forever from round 3; see benchbots.Spin.
package main

import (
	benchbots "github.com/botarena/arena/bots/bench"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(benchbots.Spin(3)) }
