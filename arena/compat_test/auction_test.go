package compat_test

import (
	"testing"

	"github.com/botarena/arena/arena/game"
)

func TestAuctionSeedClientScript(t *testing.T) {
	t.Parallel()
	for _, opp := range []string{bot("bots/auction/cmd/sample"), bot("examples/python/auction/bot.py")} {
		p := play(t, "auction", nil, seedBot("auction/sample_client.py"), opp)
		noFaults(t, p)
		logHas(t, p, 0, "'finished': True")
	}
}

func TestAuctionSeedScriptsShareAProcessFreeAuction(t *testing.T) {
	t.Parallel()
	// Three players: two copies of the script (two processes) and a house bot.
	p := play(t, "auction", map[string]string{"artists": "3", "required": "2"},
		seedBot("auction/sample_client.py"), bot("bots/auction/cmd/collector"), seedBot("auction/sample_client.py"))
	noFaults(t, p)
}

func TestAuctionSeedRaiseDisqualifiesWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, "auction", map[string]string{"required": "5"}, seedBot("auction/raiser_client.py"), bot("bots/auction/cmd/sample"))
	faultWith(t, p, 0, game.FaultCrash, "auction script failure in round 3", "raiser_client.py")
	if result(p, 0) != game.ResultLoss || result(p, 1) != game.ResultWin {
		t.Fatalf("%v", p)
	}
}

func TestAuctionSeedInputIsAFault(t *testing.T) {
	t.Parallel()
	p := play(t, "auction", map[string]string{"required": "5"}, bot("bots/auction/cmd/sample"), seedBot("auction/input_client.py"))
	faultWith(t, p, 1, game.FaultCrash, "EOFError", "input_client.py")
	if result(p, 1) != game.ResultLoss {
		t.Fatalf("%v", p)
	}
}
