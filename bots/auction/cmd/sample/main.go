// Command sample is the auction's seed sample bidder; see package auctionbots.
package main

import (
	auctionbots "github.com/botarena/arena/bots/auction"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(auctionbots.Sample()) }
