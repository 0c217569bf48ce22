package compat_test

import (
	"testing"

	"github.com/botarena/arena/arena/game"
)

var dynParams = map[string]string{"target": "50"}

// checkDynamite: the higher score wins, and a match without faults ends at the target.
func checkDynamite(t *testing.T, p played) {
	t.Helper()
	o := p.res.Outcome
	s0, s1 := o.Players[0].Score, o.Players[1].Score
	if len(o.Faults) == 0 && s0 < 50 && s1 < 50 {
		t.Fatalf("match ended before the target:\n%v", p)
	}
	if (s0 > s1 && result(p, 0) != game.ResultWin) || (s1 > s0 && result(p, 1) != game.ResultWin) {
		t.Fatalf("higher score did not win:\n%v", p)
	}
}

func TestDynamiteSeedFunctionBot(t *testing.T) {
	t.Parallel()
	for _, opp := range []string{bot("bots/dynamite/cmd/paper"), bot("examples/python/dynamite/bot.py")} {
		p := play(t, "dynamite", dynParams, seedBot("dynamite/function_bot.py"), opp)
		noFaults(t, p)
		checkDynamite(t, p)
		logHas(t, p, 0, "function bot: round")
	}
}

func TestDynamiteSeedClassBotIgnoresImportedBase(t *testing.T) {
	t.Parallel()
	for _, opp := range []string{bot("examples/python/dynamite/bot.py"), bot("bots/dynamite/cmd/beatlast")} {
		p := play(t, "dynamite", dynParams, opp, seedBot("dynamite/class_bot.py"))
		noFaults(t, p)
		checkDynamite(t, p)
		logHas(t, p, 1, "class bot 1")
	}
}

func TestDynamiteSeedNamedClass(t *testing.T) {
	t.Parallel()
	// The named class plays: Rock beats the scissors bot every round.
	p := play(t, "dynamite", dynParams, seedBot("dynamite/two_classes.py:Rock"), bot("bots/dynamite/cmd/scissors"))
	noFaults(t, p)
	if result(p, 0) != game.ResultWin || p.res.Outcome.Players[0].Score != 50 || p.res.Outcome.Players[1].Score != 0 {
		t.Fatalf("Rock against scissors:\n%v", p)
	}
}

func TestDynamiteSeedRaiseForfeitsWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, "dynamite", dynParams, bot("bots/dynamite/cmd/paper"), seedBot("dynamite/raiser.py"))
	faultWith(t, p, 1, game.FaultCrash, "seed bot failure in round 5", "raiser.py")
	if result(p, 1) != game.ResultLoss || p.res.Outcome.Faults[0].Where != "round 5" {
		t.Fatalf("%v", p)
	}
}

func TestDynamiteSeedInputIsAFaultNotAHang(t *testing.T) {
	t.Parallel()
	p := play(t, "dynamite", dynParams, seedBot("dynamite/inputter.py"), bot("bots/dynamite/cmd/paper"))
	faultWith(t, p, 0, game.FaultCrash, "EOFError", "inputter.py")
	if result(p, 0) != game.ResultLoss {
		t.Fatalf("%v", p)
	}
}
