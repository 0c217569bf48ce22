package main

import (
	"testing"

	"github.com/botarena/arena/sdk/bidding"
)

// The example's bid is legal for every purse and bottle position: 1..money, or 0 when broke.
func TestBidIsAlwaysLegal(t *testing.T) {
	for money := range 101 {
		for bottle := 1; bottle <= 9; bottle++ {
			for _, side := range []bidding.Side{bidding.A, bidding.B} {
				s := &bidding.State{OwnMoney: money, BottlePosition: bottle, Side: side}
				b := bid(s)
				if b < s.MinBid() || b > money {
					t.Fatalf("money %d bottle %d side %v: bid %d", money, bottle, side, b)
				}
			}
		}
	}
}
