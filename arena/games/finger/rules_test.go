package finger

import (
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Each test pins one sentence of docs/rules/finger.md; the test name says
// which.

func TestFingerIsTwoPlayerGameOfAlternatingTurns(t *testing.T) {
	t.Parallel()
	if Spec.MinPlayers != 2 || Spec.MaxPlayers != 2 {
		t.Fatalf("players %d..%d, want exactly 2", Spec.MinPlayers, Spec.MaxPlayers)
	}
	if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}, {Name: "b"}, {Name: "c"}}}); err == nil {
		t.Fatal("three players accepted")
	}
	e := newMatch(t, nil)
	var order []int
	for _, a := range []*arenav1.FingerAction{ll, ll, ll} {
		p := e.Pending()
		if len(p) != 1 {
			t.Fatalf("pending %v, want one seat at a time", p)
		}
		order = append(order, p[0])
		move(t, e, a)
	}
	if fmt.Sprint(order) != "[0 1 0]" {
		t.Fatalf("turn order %v, want [0 1 0]", order)
	}
}

func TestFingerEachPlayerStartsWithOneFingerPerHand(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	o := observe(e, 0)
	if o.OwnLeft != 1 || o.OwnRight != 1 || o.OpponentLeft != 1 || o.OpponentRight != 1 {
		t.Fatalf("start %v", o)
	}
}

func TestFingerHitAddsAttackingCountToTarget(t *testing.T) {
	t.Parallel()
	// LEFT_TO_RIGHT = my LEFT hits the opponent's RIGHT.
	for _, tc := range []struct {
		a    *arenav1.FingerAction
		want Hands
	}{
		{ll, Hands{1 + 1, 2}}, {lr, Hands{1, 2 + 1}}, {rl, Hands{1 + 2, 2}}, {rr, Hands{1, 2 + 2}},
	} {
		e := newMatch(t, nil)
		e.hands = [2]Hands{{1, 2}, {1, 2}}
		move(t, e, tc.a)
		if e.hands[1] != tc.want || e.hands[0] != (Hands{1, 2}) {
			t.Errorf("%s: hands %v, want mover {1 2} and target %v", moveName(tc.a.Move), e.hands, tc.want)
		}
	}
}

func TestFingerHandAtFiveOrMoreIsLost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ attack, target int32 }{{1, 4}, {4, 4}, {3, 2}, {5, 5}} {
		e := newMatch(t, nil)
		e.hands = [2]Hands{{tc.attack, 1}, {tc.target, 1}}
		move(t, e, ll)
		if got := e.hands[1][left]; got != 0 {
			t.Errorf("%d hits %d: hand has %d, want 0 (lost, no wrap-around)", tc.attack, tc.target, got)
		}
		if e.Done() || e.game != 1 {
			t.Errorf("game ended although the target still has a hand")
		}
	}
	e := newMatch(t, nil)
	e.hands = [2]Hands{{1, 1}, {3, 1}}
	move(t, e, ll)
	if e.hands[1][left] != 4 {
		t.Fatalf("3+1 gave %d, want 4 (below 5 stays)", e.hands[1][left])
	}
}

func TestFingerLostHandComesBackThroughSwitch(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	e.hands = [2]Hands{{0, 3}, {1, 1}}
	move(t, e, switchMove(2, 1))
	if e.hands[0] != (Hands{2, 1}) {
		t.Fatalf("hands %v, want {2 1}", e.hands[0])
	}
}

func TestFingerSwitchSetsHandsExactly(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	e.hands = [2]Hands{{3, 3}, {1, 1}}
	move(t, e, switchMove(4, 2))
	if e.hands[0] != (Hands{4, 2}) || e.hands[1] != (Hands{1, 1}) {
		t.Fatalf("hands %v, want {4 2} {1 1}", e.hands)
	}
}

// illegalCase sets the mover's and opponent's hands, plays a and expects an illegal-move loss.
func illegalCase(t *testing.T, me, opp Hands, a *arenav1.FingerAction, detail string) {
	t.Helper()
	e := newMatch(t, map[string]string{"games": "2"})
	e.hands = [2]Hands{me, opp}
	move(t, e, a)
	if e.won != [2]int{0, 1} {
		t.Fatalf("games won %v, want the mover (alice) to lose", e.won)
	}
	if len(e.faults) != 1 {
		t.Fatalf("faults %v, want one", e.faults)
	}
	f := e.faults[0]
	if f.Seat != 0 || f.Kind != game.FaultIllegal || f.Where != "game 1, round 1" || f.Penalty != "loses the game" {
		t.Fatalf("fault %+v", f)
	}
	if !strings.Contains(f.Detail, detail) {
		t.Fatalf("detail %q does not say %q", f.Detail, detail)
	}
	if e.game != 2 || e.hands != [2]Hands{{1, 1}, {1, 1}} {
		t.Fatalf("the next game did not start fresh: game %d hands %v", e.game, e.hands)
	}
}

func TestFingerHitWithEmptyHandIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{0, 2}, Hands{1, 1}, lr, "hits with a hand that has 0 fingers")
}

func TestFingerHittingEmptyHandIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{1, 2}, Hands{1, 0}, rr, "hits the opponent's hand that has 0 fingers")
}

func TestFingerSwitchWithOtherSumIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{3, 3}, Hands{1, 1}, switchMove(4, 3), "sums to 7")
	illegalCase(t, Hands{3, 3}, Hands{1, 1}, switchMove(1, 1), "sums to 2")
}

func TestFingerSwitchToSameHandsIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{3, 4}, Hands{1, 1}, switchMove(3, 4), "leaves the hands as they are")
	illegalCase(t, Hands{4, 4}, Hands{1, 1}, switchMove(4, 4), "leaves the hands as they are")
}

func TestFingerMirrorSwitchIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{3, 4}, Hands{1, 1}, switchMove(4, 3), "mirrors")
	illegalCase(t, Hands{1, 2}, Hands{1, 1}, switchMove(2, 1), "mirrors")
	illegalCase(t, Hands{0, 3}, Hands{1, 1}, switchMove(3, 0), "mirrors")
}

func TestFingerSwitchOverFiveIsIllegal(t *testing.T) {
	t.Parallel()
	illegalCase(t, Hands{3, 4}, Hands{1, 1}, switchMove(6, 1), "more than 5")
	illegalCase(t, Hands{3, 4}, Hands{1, 1}, switchMove(1, 6), "more than 5")
}

func TestFingerSwitchToFiveAllowed(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	e.hands = [2]Hands{{3, 4}, {1, 1}}
	move(t, e, switchMove(5, 2))
	if e.hands[0] != (Hands{5, 2}) || len(e.faults) != 0 || e.game != 1 {
		t.Fatalf("hands %v faults %v game %d: SWITCH(5, 2) from 3 4 must be allowed", e.hands, e.faults, e.game)
	}
	// A hand of 5 is a live hand: it may hit, and any hit on it loses it.
	move(t, e, ll) // bob's left (1) hits alice's 5 -> lost
	if e.hands[0] != (Hands{0, 2}) {
		t.Fatalf("after a hit on 5: %v, want {0 2}", e.hands[0])
	}
}

func TestFingerNegativeSwitchIllegal(t *testing.T) {
	t.Parallel()
	// Sum and "over 5" both hold for (-1, 3) from 1 1: only the negative check catches it.
	illegalCase(t, Hands{1, 1}, Hands{1, 1}, switchMove(-1, 3), "negative")
	illegalCase(t, Hands{2, 2}, Hands{1, 1}, switchMove(5, -1), "negative")
}

func TestFingerWrongTypeTimeoutOrCrashLoses(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a    game.Answer
		kind game.FaultKind
	}{
		{"timeout", game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout, Detail: "no answer in 1s"}}, game.FaultTimeout},
		{"crash", game.Answer{Fault: &game.Fault{Kind: game.FaultCrash, Detail: "exit 2"}}, game.FaultCrash},
		{"garbage from runner", game.Answer{Fault: &game.Fault{Kind: game.FaultGarbage}}, game.FaultGarbage},
		{"nil action", game.Answer{}, game.FaultGarbage},
		{"empty response", game.Answer{Action: &arenav1.ActResponse{}}, game.FaultGarbage},
		{"other game's action", game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{}}}}, game.FaultGarbage},
		{"unspecified move", game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: &arenav1.FingerAction{}}}}, game.FaultGarbage},
		{"unknown move", game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: &arenav1.FingerAction{Move: 99}}}}, game.FaultGarbage},
		{"bot raised", game.Answer{Action: &arenav1.ActResponse{Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION, Message: "ZeroDivisionError"}}}, game.FaultCrash},
		{"bot returned a string", game.Answer{Action: &arenav1.ActResponse{Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: "'x'"}}}, game.FaultGarbage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newMatch(t, map[string]string{"games": "3"})
			move(t, e, ll) // alice moves; bob faults
			tc.a.Seat = 1
			// Judged as the runner judges it: the engine sees a finger move or a fault.
			if err := e.Apply([]game.Answer{game.JudgeAnswer(Name, tc.a)}); err != nil {
				t.Fatal(err)
			}
			if e.won != [2]int{1, 0} || e.game != 2 {
				t.Fatalf("won %v game %d: bob must lose game 1", e.won, e.game)
			}
			f := e.faults[0]
			if f.Seat != 1 || f.Kind != tc.kind || f.Where != "game 1, round 2" || f.Penalty != "loses the game" {
				t.Fatalf("fault %+v, want seat 1 %s at game 1, round 2", f, tc.kind)
			}
		})
	}
}

func TestFingerBothHandsAtZeroLoses(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "2"})
	e.hands = [2]Hands{{4, 1}, {0, 1}}
	move(t, e, lr) // 4 hits bob's 1 -> 5 -> lost; bob has no hand left
	if e.won != [2]int{1, 0} || e.game != 2 || len(e.faults) != 0 {
		t.Fatalf("won %v game %d faults %v: alice must win game 1", e.won, e.game, e.faults)
	}
}

// cycle plays switches that never end a game: (1,1) <-> (2,0) for both players.
func cycle(e *engine) *arenav1.FingerAction {
	if e.hands[e.toMove] == (Hands{1, 1}) {
		return switchMove(2, 0)
	}
	return switchMove(1, 1)
}

func TestFingerFiveThousandRoundsBothLose(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "2"})
	for range 4999 {
		move(t, e, cycle(e))
	}
	if e.game != 1 || e.round != 4999 {
		t.Fatalf("game %d round %d: game 1 must still run after 4999 moves (the original 1000-move tie is not ours)", e.game, e.round)
	}
	if o := observe(e, e.toMove); o.Round != 5000 {
		t.Fatalf("round shown %d, want 5000", o.Round)
	}
	move(t, e, cycle(e))
	if e.game != 2 || e.bothLost != 1 || e.won != [2]int{} {
		t.Fatalf("after 5000 moves: game %d both lost %d won %v; want game 1 lost by both", e.game, e.bothLost, e.won)
	}
	for range 5000 {
		move(t, e, cycle(e))
	}
	out := e.Outcome()
	if !e.Done() || out.Players[0].Result != game.ResultDraw || out.Players[0].Score != 0 || !strings.Contains(out.Summary, "2 lost by both") {
		t.Fatalf("outcome %+v", out)
	}
	if out.Table[1][3] != "2" || out.Table[2][3] != "2" {
		t.Fatalf("table %v: both-lost column", out.Table)
	}
}

func TestFingerMaxRoundsParam(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"max_rounds": "7", "games": "1"})
	for range 7 {
		move(t, e, cycle(e))
	}
	if !e.Done() || e.bothLost != 1 {
		t.Fatalf("max_rounds=7 not applied: done %v both lost %d", e.Done(), e.bothLost)
	}
}

func TestFingerMatchIsThousandGamesByDefault(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	var s arenav1.StartRequest
	e.Setup(1, &s)
	fs := s.GetFinger()
	if fs.Games != 1000 || fs.MaxRounds != 5000 || fs.OwnName != "bob" || fs.OpponentName != "alice" {
		t.Fatalf("setup %v", fs)
	}
	// Every game lost at once by the starter: 1000 requests, then done.
	n := playMatch(t, e, 1000, func(int, *arenav1.ActRequest) game.Answer {
		return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash}}
	})
	if n != 1000 || e.won != [2]int{500, 500} {
		t.Fatalf("requests %d won %v, want 1000 games split 500-500", n, e.won)
	}
}

func TestFingerStarterAlternates(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "4"})
	for g, want := range []int{0, 1, 0, 1} {
		if e.game != g+1 || e.Pending()[0] != want {
			t.Fatalf("game %d: seat %d to move, want %d", e.game, e.Pending()[0], want)
		}
		for s := range 2 {
			o := observe(e, s)
			if o.StartingPlayer != e.names[want] || o.Started != (s == want) {
				t.Fatalf("game %d seat %d: starting player %q started %v", e.game, s, o.StartingPlayer, o.Started)
			}
		}
		move(t, e, switchMove(7, 7)) // illegal: the starter loses at once
	}
	if e.won != [2]int{2, 2} {
		t.Fatalf("won %v", e.won)
	}
}

func TestFingerBotSeesHandsRoundAndStarter(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	move(t, e, lr) // alice: left hits bob's right -> bob 1 2
	o := observe(e, 1)
	if o.Game != 1 || o.Round != 2 || o.OwnLeft != 1 || o.OwnRight != 2 || o.OpponentLeft != 1 || o.OpponentRight != 1 ||
		o.StartingPlayer != "alice" || o.Started || o.GamesWon != 0 || o.GamesLost != 0 {
		t.Fatalf("bob sees %v", o)
	}
}

func TestFingerHistoryRecordsWhoMoved(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	move(t, e, lr)
	o := observe(e, 1)
	if len(o.Recent) != 1 || o.Recent[0].Player != "alice" || o.Recent[0].Own || o.Recent[0].Action.Move != lr.Move || !o.NewGame {
		t.Fatalf("bob's first request: %v", o)
	}
	move(t, e, switchMove(0, 3))
	o = observe(e, 0)
	if len(o.Recent) != 2 || o.NewGame ||
		o.Recent[0].Player != "alice" || !o.Recent[0].Own || o.Recent[0].Action.Move != lr.Move ||
		o.Recent[1].Player != "bob" || o.Recent[1].Own || o.Recent[1].Action.SwitchRight != 3 {
		t.Fatalf("alice's second request: %v", o)
	}
}

func TestFingerHistoryResetsEachGame(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "3"})
	move(t, e, ll)
	move(t, e, ll)
	e.hands = [2]Hands{{4, 1}, {1, 0}} // alice wins with her next move
	move(t, e, ll)
	if e.game != 2 {
		t.Fatalf("game %d", e.game)
	}
	// Game 2: bob starts; he sees a fresh game, no moves, round 1, and his game tally.
	o := observe(e, 1)
	if !o.NewGame || len(o.Recent) != 0 || o.Round != 1 || o.Game != 2 || o.GamesLost != 1 || o.GamesWon != 0 {
		t.Fatalf("bob at game 2: %v", o)
	}
	move(t, e, rr)
	o = observe(e, 0)
	if !o.NewGame || len(o.Recent) != 1 || o.Recent[0].Player != "bob" || o.Round != 2 || o.GamesWon != 1 {
		t.Fatalf("alice at game 2: %v", o)
	}
	move(t, e, rr)
	if o := observe(e, 1); o.NewGame || len(o.Recent) != 2 {
		t.Fatalf("bob's second move of game 2: %v", o)
	}
}

func TestFingerRequestDoesNotGrowWithMatchLength(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "1"})
	for range 3000 {
		if o := observe(e, e.toMove); len(o.Recent) > 2 {
			t.Fatalf("round %d: %d recent moves", o.Round, len(o.Recent))
		}
		move(t, e, cycle(e))
	}
}

func TestFingerMoreGamesWonWinsTheMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		won    [2]int
		result [2]game.Result
		rank   [2]int
		prefix string
	}{
		{[2]int{3, 1}, [2]game.Result{game.ResultWin, game.ResultLoss}, [2]int{1, 2}, "alice wins 3-1"},
		{[2]int{1, 3}, [2]game.Result{game.ResultLoss, game.ResultWin}, [2]int{2, 1}, "bob wins 3-1"},
		{[2]int{2, 2}, [2]game.Result{game.ResultDraw, game.ResultDraw}, [2]int{1, 1}, "draw 2-2"},
	} {
		e := newMatch(t, map[string]string{"games": "4"})
		// The loser of each game times out at its first request; the other seat hits.
		var losers []int
		for s := range 2 {
			for range tc.won[1-s] {
				losers = append(losers, s)
			}
		}
		playMatch(t, e, 100, func(seat int, req *arenav1.ActRequest) game.Answer {
			if losers[req.GetFinger().Game-1] == seat {
				return game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}}
			}
			return game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: ll}}}
		})
		out := e.Outcome()
		for s := range 2 {
			p := out.Players[s]
			if p.Result != tc.result[s] || p.Score != float64(tc.won[s]) || p.Rank != tc.rank[s] {
				t.Errorf("%v: seat %d outcome %+v", tc.won, s, p)
			}
			var end arenav1.EndRequest
			e.Final(s, &end)
			if end.Result != tc.result[s].Proto() || end.Score != float64(tc.won[s]) {
				t.Errorf("%v: seat %d final %v", tc.won, s, &end)
			}
		}
		if !strings.HasPrefix(out.Summary, tc.prefix) {
			t.Errorf("summary %q, want prefix %q", out.Summary, tc.prefix)
		}
		if len(out.Faults) != 4 {
			t.Errorf("faults %d, want 4", len(out.Faults))
		}
	}
}

func TestFingerEngineDoesNotKeepAnswerMessages(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	a := switchMove(2, 0)
	move(t, e, a)
	a.Move, a.SwitchLeft = arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT, 9 // the bot reuses its message
	if r := observe(e, 1).Recent[0].Action; r.Move != arenav1.FingerMove_FINGER_MOVE_SWITCH || r.SwitchLeft != 2 {
		t.Fatalf("history shows %v, want the switch as played", r)
	}
}
