package biddingbots

import (
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
)

// Random is the seed's RandomBot: with $1 or less it bids all it has, otherwise a uniform
// random bid from 1 up to (not including) its money, like Python's random.randrange(1, money).
func Random() sdk.Bot {
	return sdk.Bot{Name: "random", Author: "house", Version: "1",
		Bidding: func() sdk.BiddingPlayer {
			r := rand.New(rand.NewPCG(rand.Uint64(), 1))
			return sdk.BiddingFunc(func(s *sdk.BiddingState) int {
				if s.OwnMoney <= 1 {
					return s.OwnMoney
				}
				return 1 + r.IntN(s.OwnMoney-1)
			})
		}}
}

// Strong is the house baseline.
func Strong() sdk.Bot {
	return sdk.Bot{Name: "strong", Author: "house", Version: "1",
		Bidding: func() sdk.BiddingPlayer { return sdk.BiddingFunc(strongBid) }}
}

// strongBid reasons about the rounds left. A bid of the opponent's whole money plus one (or
// just its money while holding the draw advantage) wins a round for sure, and a loser keeps its
// money, so once that price times the rounds still needed fits the purse the game is won:
// bid it. Otherwise spread the money evenly over the rounds needed, never paying more than the
// sure price; and when the game can no longer be won, spend only to stop the opponent.
func strongBid(s *sdk.BiddingState) int {
	need, threat := s.PlacesToWin(), s.PlacesToLose()
	left := s.MaxRounds - s.Round + 1
	if left <= 0 {
		left = 1
	}
	sure := s.OpponentMoney + 1
	if s.DrawAdvantage {
		sure = s.OpponentMoney
	}
	sure = max(sure, s.MinBid())
	clamp := func(b int) int { return max(s.MinBid(), min(b, s.OwnMoney)) }
	switch {
	case need <= left && sure+(need-1)*(s.OpponentMoney+1) <= s.OwnMoney:
		return clamp(sure)
	case need > left && threat > left:
		return s.MinBid() // nobody can win this game any more
	case need > left:
		// Only a loss is possible: deny the opponent the rounds it needs.
		return clamp(min(sure, s.OwnMoney/max(1, left-threat+1)))
	}
	return clamp(min(sure, s.OwnMoney/need))
}
