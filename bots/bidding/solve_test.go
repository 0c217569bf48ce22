package biddingbots

import (
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/bidding"
)

// The fast solver agrees with the plain definition (best over all bids of the worst reply) in
// every state of a small game.
func TestGuaranteesMatchTheDefinition(t *testing.T) {
	t.Parallel()
	const money = 30
	g := solveGuarantees(money, 10)
	for left := 1; left <= 10; left++ {
		for need := 1; need < places; need++ {
			for m := 0; m <= money; m++ {
				for o := 0; o <= money; o++ {
					for _, adv := range []bool{false, true} {
						want, _ := g.best(m, o, need, left, adv, nil)
						if got := g.value(m, o, need, left, adv); got != want {
							t.Fatalf("m %d o %d need %d left %d adv %v: table %d, definition %d", m, o, need, left, adv, got, want)
						}
					}
				}
			}
		}
	}
}

func TestGuaranteesKnownStates(t *testing.T) {
	t.Parallel()
	g := guaranteesFor(100, 10)
	for _, tc := range []struct {
		m, o, need, left int
		adv              bool
		want             outcome
	}{
		{100, 100, 5, 10, true, draw}, // the start: neither side can force a win
		{100, 100, 5, 10, false, draw},
		{100, 0, 5, 5, false, win},  // a broke opponent cannot stop five $1 bids
		{100, 0, 6, 5, false, draw}, // ... but six places in five rounds is too far
		{4, 100, 5, 10, true, loss}, // $4 against $100: the rich side wins
		{0, 0, 1, 1, true, win},     // both broke, one place to go: the advantage decides
		{0, 0, 1, 1, false, draw},   // ... and without it the bottle moves away, no end reached
		{10, 9, 1, 1, false, win},   // outbid the opponent's whole purse
		{9, 9, 1, 1, false, draw},   // it can tie with the advantage; then the bottle moves to 2
	} {
		if got := g.value(tc.m, tc.o, tc.need, tc.left, tc.adv); got != tc.want {
			t.Errorf("%+v: %d", tc, got)
		}
	}
}

// pacer is the example bot's rule: money divided by the places still to go.
func pacer() sdk.Bot {
	return sdk.Bot{Name: "pacer", Games: []sdk.Game{bidding.Play(func() bidding.Player {
		return bidding.Func(func(s *bidding.State) int {
			if s.OwnMoney == 0 {
				return 0
			}
			return max(1, s.OwnMoney/s.PlacesToWin())
		})
	})}}
}

func TestStrongBeatsThePacer(t *testing.T) {
	t.Parallel()
	out := play(t, 100, [2]sdk.Bot{pacer(), Strong()})
	t.Log(out.Summary)
	if len(out.Faults) != 0 || out.Players[1].Result != game.ResultWin || out.Players[1].Score < 40 || out.Players[0].Score != 0 {
		t.Fatalf("%s", out.Summary)
	}
}
