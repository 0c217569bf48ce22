package compat_test

import (
	"testing"

	"github.com/botarena/arena/arena/game"
)

func TestBiddingSeedBotChecksEveryField(t *testing.T) {
	t.Parallel()
	for _, opp := range []string{bot("bots/bidding/cmd/random"), bot("examples/python/bidding/bot.py")} {
		p := play(t, "bidding", map[string]string{"games": "20"}, opp, seedBot("bidding/checking_bot.py"))
		noFaults(t, p)
		o := p.res.Outcome
		if (o.Players[1].Score > o.Players[0].Score) != (result(p, 1) == game.ResultWin) {
			t.Fatalf("result does not follow the games won:\n%v", p)
		}
		logHas(t, p, 1, "checker: game ")
	}
}

func TestBiddingSeedRaiseLosesTheGameWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, "bidding", map[string]string{"games": "1"}, seedBot("bidding/raiser_bot.py"), bot("bots/bidding/cmd/random"))
	faultWith(t, p, 0, game.FaultCrash, "bidbot failure in round 3", "raiser_bot.py")
	if result(p, 0) != game.ResultLoss {
		t.Fatalf("%v", p)
	}
}

func TestBiddingSeedInputIsAFault(t *testing.T) {
	t.Parallel()
	p := play(t, "bidding", map[string]string{"games": "1"}, bot("bots/bidding/cmd/random"), seedBot("bidding/input_bot.py"))
	faultWith(t, p, 1, game.FaultCrash, "EOFError", "input_bot.py")
	if result(p, 1) != game.ResultLoss {
		t.Fatalf("%v", p)
	}
}
