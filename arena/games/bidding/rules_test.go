package bidding

import (
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Each test pins one sentence of docs/rules/bidding.md; the test name
// says which. In game 1 alice (seat 0) is A and bob (seat 1) is B.

func TestBiddingTwoPlayersBidSimultaneously(t *testing.T) {
	t.Parallel()
	if Spec.MinPlayers != 2 || Spec.MaxPlayers != 2 {
		t.Fatalf("players %d..%d", Spec.MinPlayers, Spec.MaxPlayers)
	}
	e := newMatch(t, nil)
	if p := e.Pending(); len(p) != 2 || p[0] != 0 || p[1] != 1 {
		t.Fatalf("pending %v, want both seats", p)
	}
	// Sealed: a seat's observation never shows the other's bid of the round being played.
	o := observe(e, 1)
	if o.HasLast || o.LastOpponentBid != 0 {
		t.Fatalf("round 1 shows a last bid: %v", o)
	}
	// Answer order does not matter.
	if err := e.Apply([]game.Answer{bidAnswer(1, 3), bidAnswer(0, 2)}); err != nil {
		t.Fatal(err)
	}
	if e.bottle != 4 {
		t.Fatalf("bottle %d, want 4 (B bid more)", e.bottle)
	}
}

func TestBiddingSidesAandB(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	if observe(e, 0).Player != arenav1.BiddingPlayer_BIDDING_PLAYER_A || observe(e, 1).Player != arenav1.BiddingPlayer_BIDDING_PLAYER_B {
		t.Fatal("game 1: seat 0 must be A, seat 1 B")
	}
}

func TestBiddingElevenPlacesBottleStartsAtFive(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "1"})
	if o := observe(e, 0); o.BottlePosition != 5 {
		t.Fatalf("bottle starts at %d", o.BottlePosition)
	}
	// Five A wins in a row take it from 5 to 10, the last of the 11 places 0..10.
	for i := range 5 {
		if e.Done() {
			t.Fatalf("game over after %d rounds", i)
		}
		bid(t, e, 2, 1)
	}
	if !e.Done() || e.won[0] != 1 {
		t.Fatalf("A did not win at place 10: bottle %d won %v", e.bottle, e.won)
	}
}

func TestBiddingRoundWonByAMovesBottleTowardTen(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 10, 9)
	if e.bottle != 6 {
		t.Fatalf("bottle %d, want 6", e.bottle)
	}
	e = newMatch(t, nil)
	bid(t, e, 9, 10)
	if e.bottle != 4 {
		t.Fatalf("bottle %d after B won, want 4", e.bottle)
	}
}

func TestBiddingEachStartsWithHundredDollars(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	for s := range 2 {
		if o := observe(e, s); o.OwnMoney != 100 || o.OpponentMoney != 100 || o.StartMoney != 100 {
			t.Fatalf("seat %d: %v", s, o)
		}
	}
	e = newMatch(t, map[string]string{"start_money": "7"})
	if o := observe(e, 0); o.OwnMoney != 7 || o.StartMoney != 7 {
		t.Fatalf("start_money=7: %v", o)
	}
	var s arenav1.StartRequest
	e.Setup(0, &s)
	if s.GetBidding().StartMoney != 7 || s.GetBidding().Games != 100 || s.GetBidding().MaxRounds != 10 {
		t.Fatalf("setup %v", s.GetBidding())
	}
}

func TestBiddingHigherBidWinsAndPaysLoserKeepsMoney(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 30, 29)
	if e.money != [2]int64{70, 100} {
		t.Fatalf("money %v, want winner A paid 30, loser B kept 100", e.money)
	}
	bid(t, e, 5, 40)
	if e.money != [2]int64{70, 60} {
		t.Fatalf("money %v, want B paid 40", e.money)
	}
}

// faultCase plays one round where alice answers a (bob bids 1) and expects the game abandoned
// with alice losing.
func faultCase(t *testing.T, e *engine, a game.Answer, kind game.FaultKind, detail string) {
	t.Helper()
	a.Seat = 0
	round := e.round + 1
	// Judged as the runner judges it: the engine sees a bid or a fault.
	if err := e.Apply([]game.Answer{game.JudgeAnswer(Name, a), bidAnswer(1, 1)}); err != nil {
		t.Fatal(err)
	}
	if e.won != [2]int{0, 1} || e.lost != [2]int{1, 0} || e.game != 2 {
		t.Fatalf("won %v lost %v game %d: alice must lose game 1", e.won, e.lost, e.game)
	}
	if e.bottle != 5 || e.money != [2]int64{100, 100} || e.round != 0 {
		t.Fatalf("game 2 did not start fresh: bottle %d money %v round %d", e.bottle, e.money, e.round)
	}
	f := e.faults[len(e.faults)-1]
	if f.Seat != 0 || f.Kind != kind || f.Penalty != "game abandoned, loses the game" || !strings.Contains(f.Detail, detail) ||
		f.Where != "game 1, round "+string(rune('0'+round)) {
		t.Fatalf("fault %+v, want %s %q at game 1, round %d", f, kind, detail, round)
	}
}

func TestBiddingZeroOnlyWhenBroke(t *testing.T) {
	t.Parallel()
	faultCase(t, newMatch(t, nil), bidAnswer(0, 0), game.FaultIllegal, "bid 0 with 100 dollars left")
	// With $0 left, 0 is the bid; the opponent may also be broke and the tie goes by advantage.
	e := newMatch(t, map[string]string{"start_money": "3"})
	bid(t, e, 3, 1) // A pays 3, bottle 6
	bid(t, e, 0, 1) // B wins, pays 1, bottle 5
	if len(e.faults) != 0 || e.money != [2]int64{0, 2} || e.bottle != 5 {
		t.Fatalf("faults %v money %v bottle %d", e.faults, e.money, e.bottle)
	}
	bid(t, e, 0, 2)
	bid(t, e, 0, 0) // both broke: A holds the advantage, wins and pays 0
	if len(e.faults) != 0 || e.bottle != 5 || e.advantage != 1 {
		t.Fatalf("faults %v bottle %d advantage %d", e.faults, e.bottle, e.advantage)
	}
}

func TestBiddingLeastBidIsOneDollar(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 1, 1)
	if len(e.faults) != 0 {
		t.Fatalf("a $1 bid was charged: %v", e.faults)
	}
}

func TestBiddingInvalidBidAbandonsGame(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		a      game.Answer
		kind   game.FaultKind
		detail string
	}{
		{"over its money", bidAnswer(0, 101), game.FaultIllegal, "more than the 100 dollars left"},
		{"zero while it has money", bidAnswer(0, 0), game.FaultIllegal, "bid 0 with 100"},
		{"negative", bidAnswer(0, -5), game.FaultIllegal, "negative"},
		{"not a number", game.Answer{Action: &arenav1.ActResponse{Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: "get_bid returned 'ten'"}}}, game.FaultGarbage, "'ten'"},
		{"no bid", game.Answer{Action: &arenav1.ActResponse{}}, game.FaultGarbage, "not a bid"},
		{"other game's action", game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: &arenav1.FingerAction{}}}}, game.FaultGarbage, "not a bid"},
		{"nil action", game.Answer{}, game.FaultGarbage, "no answer"},
		{"garbage from runner", game.Answer{Fault: &game.Fault{Kind: game.FaultGarbage, Detail: "step 3 answered for step 2"}}, game.FaultGarbage, "step 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			faultCase(t, newMatch(t, nil), tc.a, tc.kind, tc.detail)
		})
	}
	// Mid-game: the bottle had moved toward bob; alice's invalid bid still just loses the game.
	e := newMatch(t, nil)
	bid(t, e, 1, 50)
	faultCase(t, e, bidAnswer(0, 101), game.FaultIllegal, "more than")
}

func TestBiddingTimeoutOrCrashAbandonsGame(t *testing.T) {
	t.Parallel()
	faultCase(t, newMatch(t, nil), game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout, Detail: "1s"}}, game.FaultTimeout, "1s")
	faultCase(t, newMatch(t, nil), game.Answer{Fault: &game.Fault{Kind: game.FaultCrash, Detail: "exit 1"}}, game.FaultCrash, "exit 1")
	faultCase(t, newMatch(t, nil), game.Answer{Action: &arenav1.ActResponse{Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION, Message: "KeyError"}}}, game.FaultCrash, "KeyError")
}

func TestBiddingBothFaultBothLose(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	if err := e.Apply([]game.Answer{bidAnswer(0, 0), {Seat: 1, Fault: &game.Fault{Kind: game.FaultTimeout}}}); err != nil {
		t.Fatal(err)
	}
	if e.won != [2]int{} || e.lost != [2]int{1, 1} || e.drawn != 0 || len(e.faults) != 2 || e.game != 2 {
		t.Fatalf("won %v lost %v drawn %d faults %v", e.won, e.lost, e.drawn, e.faults)
	}
	for _, f := range e.faults {
		if !strings.Contains(f.Penalty, "both lose") {
			t.Fatalf("penalty %q", f.Penalty)
		}
	}
}

func TestBiddingDrawAdvantageWinsTieAndPays(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 20, 20) // A holds the advantage first
	if e.bottle != 6 || e.money != [2]int64{80, 100} {
		t.Fatalf("bottle %d money %v: A must win the tie and pay", e.bottle, e.money)
	}
}

func TestBiddingAHoldsDrawAdvantageFirst(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	if !observe(e, 0).DrawAdvantage || observe(e, 1).DrawAdvantage {
		t.Fatal("game 1: A (alice) must hold the advantage")
	}
	faultCase(t, e, bidAnswer(0, -1), game.FaultIllegal, "negative") // to game 2: bob is A
	if observe(e, 0).DrawAdvantage || !observe(e, 1).DrawAdvantage || observe(e, 1).Player != arenav1.BiddingPlayer_BIDDING_PLAYER_A {
		t.Fatal("game 2: A (bob) must hold the advantage")
	}
}

func TestBiddingDrawAdvantagePassesOver(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 5, 5) // A wins, advantage to B
	if observe(e, 0).DrawAdvantage || !observe(e, 1).DrawAdvantage {
		t.Fatal("advantage did not pass to B")
	}
	bid(t, e, 7, 8) // no tie: advantage stays with B
	if !observe(e, 1).DrawAdvantage {
		t.Fatal("advantage moved without a tie")
	}
	bid(t, e, 5, 5) // B wins, advantage back to A
	if e.bottle != 4 || e.money != [2]int64{95, 87} || !observe(e, 0).DrawAdvantage {
		t.Fatalf("bottle %d money %v", e.bottle, e.money)
	}
}

func TestBiddingBottleReachesEnd(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		a, b   int64
		winner int
		bottle int
	}{{"A reaches 10", 2, 1, 0, 10}, {"B reaches 0", 1, 2, 1, 0}} {
		e := newMatch(t, map[string]string{"games": "2"})
		for range 5 {
			bid(t, e, tc.a, tc.b)
		}
		if e.game != 2 || e.won[tc.winner] != 1 || e.lost[1-tc.winner] != 1 {
			t.Fatalf("%s: game %d won %v", tc.name, e.game, e.won)
		}
	}
}

func TestBiddingTenRoundsDraw(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "2"})
	for i := range 10 {
		if e.game != 1 {
			t.Fatalf("game ended after %d rounds", i)
		}
		if i%2 == 0 {
			bid(t, e, 2, 1)
		} else {
			bid(t, e, 1, 2)
		}
	}
	if e.game != 2 || e.drawn != 1 || e.won != [2]int{} || e.lost != [2]int{} {
		t.Fatalf("game %d drawn %d won %v lost %v", e.game, e.drawn, e.won, e.lost)
	}
	// rounds=4: the cap is a parameter.
	e = newMatch(t, map[string]string{"rounds": "4", "games": "1"})
	for range 4 {
		bid(t, e, 1, 1)
	}
	if !e.Done() || e.drawn != 1 {
		t.Fatalf("rounds=4: done %v drawn %d", e.Done(), e.drawn)
	}
}

func TestBiddingFieldsFilledCorrectly(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	bid(t, e, 10, 4) // A wins: alice 90
	bid(t, e, 6, 6)  // tie: A (advantage holder) wins, pays 6: alice 84; advantage to B
	bid(t, e, 3, 9)  // B wins: bob 91
	o := observe(e, 1)
	want := &arenav1.BiddingObservation{
		Game: 1, Player: arenav1.BiddingPlayer_BIDDING_PLAYER_B,
		OwnMoney: 91, OpponentMoney: 84, StartMoney: 100, BottlePosition: 6,
		HasLast: true, LastOwnBid: 9, LastOpponentBid: 3,
		RoundsWon: 1, RoundsLost: 2, // the tied round counts as won by A, lost by B
		DrawAdvantage: true, Round: 4, OpponentName: "alice",
	}
	if o.String() != want.String() {
		t.Fatalf("bob sees\n %v\nwant\n %v", o, want)
	}
	if a := observe(e, 0); a.RoundsWon != 2 || a.RoundsLost != 1 || a.OpponentMoney != 91 || a.LastOwnBid != 3 || a.OpponentName != "bob" {
		t.Fatalf("alice sees %v", a)
	}
}

func TestBiddingRequestCarriesOnlyLastRound(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	o := observe(e, 0)
	if !o.NewGame || o.HasLast || o.Round != 1 {
		t.Fatalf("first request %v", o)
	}
	bid(t, e, 4, 3)
	bid(t, e, 2, 7)
	if o := observe(e, 0); o.NewGame || !o.HasLast || o.LastOwnBid != 2 || o.LastOpponentBid != 7 || o.Round != 3 {
		t.Fatalf("third request %v", o)
	}
}

func TestBiddingSidesAlternateEachGame(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	countA := [2]int{}
	for g := 1; !e.Done(); g++ {
		for s := range 2 {
			o := observe(e, s)
			if !o.NewGame || o.Game != int32(g) {
				t.Fatalf("game %d: %v", g, o)
			}
			if o.Player == arenav1.BiddingPlayer_BIDDING_PLAYER_A {
				countA[s]++
				if s != (g-1)%2 {
					t.Fatalf("game %d: seat %d is A", g, s)
				}
			}
		}
		if err := e.Apply([]game.Answer{{Seat: 0, Fault: &game.Fault{Kind: game.FaultCrash}}, bidAnswer(1, 1)}); err != nil {
			t.Fatal(err)
		}
	}
	if countA != [2]int{50, 50} || e.won[1] != 100 {
		t.Fatalf("A played %v times; won %v (default match is 100 games)", countA, e.won)
	}
}

func TestBiddingMoreGamesWonWinsTheMatch(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		losers []int // -1: a drawn game
		result [2]game.Result
		score  [2]float64
		prefix string
	}{
		{[]int{1, 1, 0, -1}, [2]game.Result{game.ResultWin, game.ResultLoss}, [2]float64{2, 1}, "alice wins 2-1 (1 drawn) over 4 games"},
		{[]int{0, -1, -1, -1}, [2]game.Result{game.ResultLoss, game.ResultWin}, [2]float64{0, 1}, "bob wins 1-0 (3 drawn)"},
		{[]int{0, 1, -1, -1}, [2]game.Result{game.ResultDraw, game.ResultDraw}, [2]float64{1, 1}, "draw 1-1"},
	} {
		e := newMatch(t, map[string]string{"games": "4", "rounds": "1"})
		playMatch(t, e, 8, func(seat int, req *arenav1.ActRequest) game.Answer {
			if tc.losers[req.GetBidding().Game-1] == seat {
				return game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}}
			}
			return bidAnswer(seat, 1)
		})
		out := e.Outcome()
		for s := range 2 {
			if p := out.Players[s]; p.Result != tc.result[s] || p.Score != tc.score[s] {
				t.Errorf("%v: seat %d %+v", tc.losers, s, p)
			}
			var end arenav1.EndRequest
			e.Final(s, &end)
			if end.Result != tc.result[s].Proto() || end.Score != tc.score[s] {
				t.Errorf("%v: seat %d final %v", tc.losers, s, &end)
			}
		}
		if !strings.HasPrefix(out.Summary, tc.prefix) {
			t.Errorf("summary %q, want %q", out.Summary, tc.prefix)
		}
	}
}
