package hostile_test

import (
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

// A bot that floods its connection to the host with HTTP/2 PINGs (bots/hostile/pingflood) is
// charged in the round it strikes, and its opponent's match is not slowed by it: the match
// takes no longer than its moves and one kill (before the bound, the flood made a match 21-47x
// slower and won it with no fault).
func TestPingFloodIsCharged(t *testing.T) {
	t.Parallel()
	const deadline = 700 * time.Millisecond
	o := play(t, "bots/hostile/pingflood", deadline, sandbox.Limits{}, "40")
	out := o.res.Outcome
	if len(out.Faults) != 1 {
		t.Fatalf("faults %+v, want the flooder's (bot gone: %s)\nlog:\n%s", out.Faults, o.why, tail(o.log))
	}
	f := out.Faults[0]
	if f.Seat != 0 || f.Kind != game.FaultCrash || f.Where != "round 3" || !strings.Contains(f.Detail, "connection flood: sent") {
		t.Fatalf("fault %+v, want the flooder's crash in round 3 naming the flood", f)
	}
	if out.Players[1].Result != game.ResultWin {
		t.Errorf("the honest bot did not win: %+v", out.Players)
	}
	// Charged as it floods, not left to a deadline: the match ends before the three moves'
	// deadlines would have (a bound of 10 ms a move plus 500 ms failed at 1.142 s in a slow
	// CI run, 3 December: the flood's own 437 ms and a tree's teardown under load).
	slack.Within(t, "the match against the flooder", o.res.Duration, 0, 3*deadline)
	t.Logf("charged: %s; match %v", f.Detail, o.res.Duration)
}
