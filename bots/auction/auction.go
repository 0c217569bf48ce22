package auctionbots

import (
	"math/rand/v2"
	"sync/atomic"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/auction"
)

// Sample bids a random whole number from 0 to its money minus one, as the seed's
// sample_client.py did with random.randrange(0, wealth); with no money left it bids 0 (where
// randrange would have raised).
func Sample() sdk.Bot { return SampleSeeded(rand.Uint64()) }

// SampleSeeded is Sample with a fixed seed, for reproducible tests: each seat it opens draws
// from its own generator.
func SampleSeeded(seed uint64) sdk.Bot {
	var seats atomic.Uint64
	return sdk.Bot{Name: "sample", Author: "house", Version: "1",
		Games: []sdk.Game{auction.Play(func() auction.Player {
			r := rand.New(rand.NewPCG(seed, seats.Add(1)))
			return auction.Func(func(s *auction.State) int {
				if s.Money <= 0 {
					return 0
				}
				return r.IntN(s.Money)
			})
		})}}
}

// Collector is the strong baseline.
func Collector() sdk.Bot {
	return sdk.Bot{Name: "collector", Author: "house", Version: "1",
		Games: []sdk.Game{auction.Play(func() auction.Player { return &collector{} })}}
}

// collector races for the artist whose remaining works come up soonest in the item list,
// spreading its money over the works it still needs (or outbidding everyone's whole wealth
// when it can afford that for all of them), and blocks a rival who is one work away from
// winning by bidding just over that rival's money.
type collector struct {
	artists []int // artist index of every item, parsed once
}

const never = int(^uint(0) >> 1)

// finish is the round at which name would own n works of artist a if it won every one of them
// from round r on; never if the list runs out first.
func (c *collector) finish(s *auction.State, name string, a int) int {
	need := s.Needs(name, a)
	if need == 0 {
		return s.Round
	}
	for i := s.Round; i < len(c.artists); i++ {
		if c.artists[i] == a {
			if need--; need == 0 {
				return i
			}
		}
	}
	return never
}

func (c *collector) Bid(s *auction.State) int {
	if c.artists == nil {
		c.artists = make([]int, len(s.Setup.AuctionItems))
		for i, it := range s.Setup.AuctionItems {
			c.artists[i] = auction.ArtistIndex(it)
		}
	}
	money := s.Money
	if money <= 0 || s.Round >= len(c.artists) {
		return 0
	}
	me := s.Setup.OwnName
	cur := c.artists[s.Round]
	// The rivals still in the auction, and the most any of them can pay.
	maxRival, threat := 0, -1
	for name, w := range s.WealthTable {
		if name == me || w < 0 {
			continue
		}
		maxRival = max(maxRival, w)
		if s.Needs(name, cur) == 1 {
			threat = max(threat, w)
		}
	}
	target, best := -1, never
	for a := range s.Setup.ArtistsNum {
		if f := c.finish(s, me, a); f < best {
			target, best = a, f
		}
	}
	bid := 0
	if cur == target {
		need := s.Needs(me, target)
		switch {
		case need <= 1:
			bid = min(money, maxRival+1)
		case money >= need*(maxRival+1):
			bid = maxRival + 1
		default:
			bid = money / need
		}
	}
	if threat >= 0 {
		bid = max(bid, min(money, threat+1))
	}
	return bid
}
