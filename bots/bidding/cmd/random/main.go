// Command random is the seed's RandomBot for the bidding game.
package main

import (
	biddingbots "github.com/botarena/arena/bots/bidding"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(biddingbots.Random()) }
