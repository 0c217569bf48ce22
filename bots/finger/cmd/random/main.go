// Command random is the house's random legal finger player.
package main

import (
	fingerbots "github.com/botarena/arena/bots/finger"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(fingerbots.Random()) }
