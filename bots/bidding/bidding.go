package biddingbots

import (
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/bidding"
)

// Random is the seed's RandomBot: with $1 or less it bids all it has, otherwise a uniform
// random bid from 1 up to (not including) its money, like Python's random.randrange(1, money).
func Random() sdk.Bot { return RandomSeeded(rand.Uint64()) }

// RandomSeeded is Random with a fixed seed, for reproducible tests.
func RandomSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "random", Author: "house", Version: "1",
		Games: []sdk.Game{bidding.Play(func() bidding.Player {
			r := rand.New(rand.NewPCG(seed, 1))
			return bidding.Func(func(s *bidding.State) int {
				if s.OwnMoney <= 1 {
					return s.OwnMoney
				}
				return 1 + r.IntN(s.OwnMoney-1)
			})
		})}}
}

// Strong is the house baseline. It first asks the solved table (solve.go) which bids force the
// best outcome even against an opponent who could see its bid, and among those takes the one
// closest to what a pacing heuristic would bid; without a table (a start money over 200) it
// plays the heuristic alone.
func Strong() sdk.Bot {
	return sdk.Bot{Name: "strong", Author: "house", Version: "1",
		Games: []sdk.Game{bidding.Play(func() bidding.Player {
			// Solve the default game now, while the host opens the seat (it allows seconds),
			// rather than on the first bid (which has a one-second deadline).
			guaranteesFor(100, 10)
			return &strong{}
		})}}
}

type strong struct {
	bids []int
}

func (p *strong) Bid(s *bidding.State) int {
	h := pacedBid(s)
	g := readyGuarantees(s.StartMoney, s.MaxRounds)
	if g == nil || s.OwnMoney > g.money || s.OpponentMoney > g.money {
		return h
	}
	left := s.MaxRounds - s.Round + 1
	if left < 1 || left > g.rounds {
		return h
	}
	_, p.bids = g.best(s.OwnMoney, s.OpponentMoney, s.PlacesToWin(), left, s.DrawAdvantage, p.bids)
	if len(p.bids) == 0 {
		return h
	}
	// Among them, the one nearest the heuristic: it forces as much and plays well in practice.
	best := p.bids[0]
	for _, b := range p.bids {
		if abs(b-h) < abs(best-h) {
			best = b
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pacedBid reasons about the rounds left. A bid of the opponent's whole money plus one (or
// just its money while holding the draw advantage) wins a round for sure, and a loser keeps its
// money, so once that price times the rounds still needed fits the purse the game is won:
// bid it. Otherwise spread the money evenly over the rounds needed, never paying more than the
// sure price; and when the game can no longer be won, spend only to stop the opponent.
func pacedBid(s *bidding.State) int {
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
