package main

import (
	"testing"

	"github.com/botarena/arena/sdk/auction"
)

// The example bids within its money, and only on the artist it is closest to completing.
func TestBidIsWithinMoney(t *testing.T) {
	setup := &auction.Setup{ArtistsNum: 4, RequiredCount: 3, OwnName: "me"}
	for money := range 101 {
		for item := range 4 {
			s := &auction.State{Setup: setup, Money: money, Item: "t" + string(rune('0'+item)),
				Won: map[string][]int{"me": {1, 2, 0, 0}}}
			b := bid(s)
			if b < 0 || b > money || (item != 1 && b != 0) {
				t.Fatalf("money %d item t%d: bid %d", money, item, b)
			}
		}
	}
}
