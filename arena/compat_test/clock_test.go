package compat_test

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/internal/slack"
)

// charges keeps what each seat's answers were charged (game.Answer.Elapsed: in the auction,
// what its chess clock was charged).
type charges map[int][]time.Duration

func (c charges) Step(_ int, answers []game.Answer) {
	for _, a := range answers {
		c[a.Seat] = append(c[a.Seat], a.Elapsed)
	}
}

// sleepy plays the sleepy client script (seat 0) against the house's sample bot on the given
// clock; it sleeps second seconds before its second bid and each before every other one.
func sleepy(t *testing.T, mode match.ClockMode, params map[string]string, second, each string) (played, charges) {
	t.Helper()
	c := charges{}
	p := playWith(t, "auction", params, match.Options{Deadline: time.Second, Clock: mode, Recorder: c},
		[]string{"SLEEPY_SECOND=" + second, "SLEEPY_EACH=" + each},
		seedBot("auction/sleepy_client.py"), bot("bots/auction/cmd/sample"))
	if mode == match.ClockCPU && p.res.Stats[0].CPU == 0 {
		// The host fell back to wall time: this machine's cgroups cannot count CPU time.
		msg := "the CPU clock is not available here ('arena sandbox check' says why)"
		if os.Getenv("ARENA_REQUIRE_SANDBOX") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return p, c
}

// TestAuctionChessClockChargesWallTime: the auction's chess clock is charged each answer's wall
// time under either clock (docs/rules/auction.md), so a client that sleeps in every move runs
// out of it: a timeout naming the clock, never a crash. Under the CPU clock the move's budget
// is still charged CPU time only.
func TestAuctionChessClockChargesWallTime(t *testing.T) {
	t.Parallel()
	for _, mode := range []match.ClockMode{match.ClockWall, match.ClockCPU} {
		t.Run(string(mode), func(t *testing.T) {
			t.Parallel()
			// 0.4 s a move against a 1.5 s chess clock: out in round 4 at the latest, before
			// the sample bot can own 5 works of one artist.
			p, c := sleepy(t, mode, map[string]string{"required": "5", "clock": "1.5"}, "0.4", "0.4")
			faultWith(t, p, 0, game.FaultTimeout, "its clock ran out (the game's chess clock of 1.5s")
			if f := p.res.Outcome.Faults[0]; f.Where > "round 4" || len(f.Where) != len("round 4") {
				t.Fatalf("the clock ran out at %s, want by round 4:\n%v", f.Where, p)
			}
			if result(p, 0) != game.ResultLoss || result(p, 1) != game.ResultWin {
				t.Fatalf("%v", p)
			}
			// The first sleep began before the first request; the last move was cut off.
			for i, d := range c[0][1 : len(c[0])-1] {
				if d < 400*time.Millisecond {
					t.Fatalf("answer %d charged %v to the chess clock: its sleep was not charged (%v)", i, d, c[0])
				}
			}
			st := p.res.Stats[0]
			if mode == match.ClockCPU && st.Total >= st.Wall/2 {
				t.Fatalf("under the CPU clock the moves were charged %v of their %v wall time: want their CPU time", st.Total, st.Wall)
			}
		})
	}
}

// TestAuctionSlowClientUnderEachClock: a client that sleeps 2 s in its second move (as the
// contest's clients did, under the original 120 s chess clock) with 1 s a move: on the wall
// clock it times out naming the 1 s; on the CPU clock the move is within its wall-time cap
// (3 s) and plays on, its chess clock charged the 2 s, never a crash of the SDK's shim.
func TestAuctionSlowClientUnderEachClock(t *testing.T) {
	t.Parallel()
	t.Run("wall", func(t *testing.T) {
		t.Parallel()
		p, _ := sleepy(t, match.ClockWall, nil, "2", "0")
		faultWith(t, p, 0, game.FaultTimeout, "no answer within 1s")
		if f := p.res.Outcome.Faults[0]; f.Where != "round 2" {
			t.Fatalf("the timeout at %s, want round 2:\n%v", f.Where, p)
		}
	})
	t.Run("cpu", func(t *testing.T) {
		t.Parallel()
		p, c := sleepy(t, match.ClockCPU, nil, "2", "0")
		for _, f := range p.res.Outcome.Faults {
			if f.Seat == 0 {
				t.Fatalf("the slow client was charged a fault under the CPU clock:\n%v", p)
			}
		}
		if len(c[0]) < 3 || c[0][1] < 2*time.Second {
			t.Fatalf("its second answer charged %v to the chess clock, want its 2 s of sleep (%v)", c[0], p)
		}
		st := p.res.Stats[0]
		t.Logf("the slow move: %v charged to the chess clock; the moves' budgets charged %v of CPU time in %v of wall time",
			c[0][1].Round(time.Millisecond), st.Total.Round(time.Microsecond), st.Wall.Round(time.Millisecond))
	})
	t.Run("cpu past the wall-time cap", func(t *testing.T) {
		t.Parallel()
		// The cap counts the bot's own time: before the move's wall time passes its budget the
		// run queue is not read and that part counts as the machine's (up to 1 s here), and on a
		// busy machine its threads' run-queue delay counts too. Sleep past all of that.
		sleep := 3*time.Second + time.Second + slack.Of(t, 1500*time.Millisecond)
		p, _ := sleepy(t, match.ClockCPU, nil, strconv.FormatFloat(sleep.Seconds(), 'f', 3, 64), "0")
		faultWith(t, p, 0, game.FaultTimeout, "no answer within the wall-time cap of 3s")
		if d := p.res.Outcome.Faults[0].Detail; strings.Contains(d, "crash") {
			t.Fatalf("fault %q", d)
		}
	})
}
