// Command auction is the smallest readable auction bot: it bids on the artists it is closest
// to completing and spreads its money over the works it still needs.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/auction"
)

func bid(s *auction.State) int {
	me := s.Setup.OwnName
	// The fewest more works I need of any artist.
	fewest := s.Setup.RequiredCount
	for a := range s.Setup.ArtistsNum {
		fewest = min(fewest, s.Needs(me, a))
	}
	need := s.Needs(me, auction.ArtistIndex(s.Item))
	if need > fewest {
		return 0 // another artist is closer: let this one go
	}
	return s.Money / need
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-auction", Games: []sdk.Game{auction.Play(func() auction.Player { return auction.Func(bid) })}})
}
