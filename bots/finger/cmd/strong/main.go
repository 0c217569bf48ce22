// Command strong is the house's finger baseline: it plays the solved game.
package main

import (
	fingerbots "github.com/botarena/arena/bots/finger"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(fingerbots.Strong()) }
