// Command strong is the house's bidding baseline.
package main

import (
	biddingbots "github.com/botarena/arena/bots/bidding"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(biddingbots.Strong()) }
