// Command auction is the smallest readable auction bot: it goes for the artist it is closest
// to completing and spreads its money over the works it still needs.
package main

import "github.com/botarena/arena/sdk"

func bid(s *sdk.AuctionState) int {
	me := s.Setup.OwnName
	// The artist I need the fewest more works of (ties: the lowest number).
	target := 0
	for a := range s.Setup.ArtistsNum {
		if s.Needs(me, a) < s.Needs(me, target) {
			target = a
		}
	}
	if sdk.ArtistIndex(s.Item) != target {
		return 0 // not my artist: let it go
	}
	return s.Money / s.Needs(me, target)
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-auction", Auction: func() sdk.AuctionPlayer { return sdk.AuctionFunc(bid) }})
}
