// Command collector is the auction's strong house bot; see package auctionbots.
package main

import (
	auctionbots "github.com/botarena/arena/bots/auction"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(auctionbots.Collector()) }
