package compat_test

import (
	"strings"
	"testing"
)

func TestRealtvSeedScripts(t *testing.T) {
	t.Parallel()
	p := play(t, "realtv", map[string]string{"phases": "5"}, seedBot("realtv/Schemer.py"), seedBot("realtv/LikesThemStrong.py"),
		bot("bots/realtv/cmd/likesthemstrong"), bot("examples/python/realtv/bot.py"))
	noFaults(t, p)
	o := p.res.Outcome
	total := 0.0
	for _, pl := range o.Players {
		total += pl.Score
	}
	if total <= 0 {
		t.Fatalf("nobody scored in 5 phases:\n%v", p)
	}
	logHas(t, p, 0, "phase=")
}

func TestRealtvSeedRaiseIsBetrayalWithTraceback(t *testing.T) {
	t.Parallel()
	p := play(t, "realtv", map[string]string{"phases": "2"}, seedBot("realtv/Crasher.py"), bot("bots/realtv/cmd/likesthemstrong"))
	o := p.res.Outcome
	if len(o.Faults) == 0 {
		t.Fatalf("no fault:\n%v", p)
	}
	for _, f := range o.Faults {
		if f.Detail == "(as before)" { // the host abbreviates a repeated fault
			continue
		}
		if !strings.Contains(f.Detail, "realtv script failure") && !strings.Contains(f.Detail, "EOFError") {
			t.Fatalf("fault %+v", f)
		}
		if !strings.Contains(f.Detail, "Crasher.py") {
			t.Fatalf("fault without the traceback: %+v", f)
		}
	}
}
