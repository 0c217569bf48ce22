package compat_test

import (
	"testing"

	"github.com/botarena/arena/arena/game"
)

func TestFingerSeedCustomPlayer(t *testing.T) {
	t.Parallel()
	for _, opp := range []string{bot("bots/finger/cmd/random"), bot("examples/python/finger/bot.py")} {
		p := play(t, "finger", map[string]string{"games": "20"}, seedBot("finger/custom_player.py"), opp)
		noFaults(t, p)
		o := p.res.Outcome
		if o.Players[0].Score+o.Players[1].Score > 20 {
			t.Fatalf("more games won than played:\n%v", p)
		}
		if (o.Players[0].Score > o.Players[1].Score) != (result(p, 0) == game.ResultWin) {
			t.Fatalf("more games won did not win the match:\n%v", p)
		}
		// State kept across games in class attributes; every move printed to the log.
		logHas(t, p, 0, "[black] round")
		logHas(t, p, 0, "games=")
	}
}

func TestFingerSeedInputLosesTheGameWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, "finger", map[string]string{"games": "1"}, seedBot("finger/inputter/custom_player.py"),
		bot("bots/finger/cmd/random"))
	faultWith(t, p, 0, game.FaultCrash, "EOFError", "custom_player.py")
	if result(p, 0) != game.ResultLoss {
		t.Fatalf("%v", p)
	}
}
