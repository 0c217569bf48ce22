package auction

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// newEngine builds an auction of n players named p0, p1, ...
func newEngine(t *testing.T, n int, params map[string]string) *Engine {
	t.Helper()
	cfg := game.Config{Seed: 1, Params: params}
	for i := range n {
		cfg.Players = append(cfg.Players, game.Player{Name: "p" + strconv.Itoa(i)})
	}
	eng, err := Spec.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng.(*Engine)
}

// withItems replaces the drawn item list so that a test knows what is up for sale.
func withItems(e *Engine, items ...int) *Engine {
	e.items = items
	return e
}

func bid(seat int, amount float64, order int) game.Answer {
	return game.Answer{Seat: seat, Order: order, Elapsed: time.Millisecond,
		Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Auction{Auction: &arenav1.AuctionAction{Bid: amount}}}}
}

func fault(seat int, k game.FaultKind) game.Answer {
	return game.Answer{Seat: seat, Fault: &game.Fault{Kind: k, Detail: "test"}, Elapsed: time.Millisecond}
}

func apply(t *testing.T, e *Engine, answers ...game.Answer) {
	t.Helper()
	// Judged as the runner judges them: the engine sees an auction bid or a fault.
	for i, a := range answers {
		answers[i] = game.JudgeAnswer(Spec.Name, a)
	}
	if err := e.Apply(answers); err != nil {
		t.Fatal(err)
	}
}

func observe(e *Engine, seat int) *arenav1.AuctionObservation {
	req := &arenav1.ActRequest{}
	e.Observe(seat, req)
	return req.GetAuction()
}

func TestAuctionItemsDrawnFromSeed(t *testing.T) {
	t.Parallel()
	mk := func(seed uint64) []int {
		eng, err := Spec.NewEngine(game.Config{Seed: seed, Players: []game.Player{{Name: "a"}, {Name: "b"}}})
		if err != nil {
			t.Fatal(err)
		}
		return eng.(*Engine).Items()
	}
	a, b, c := mk(5), mk(5), mk(6)
	if len(a) != 1000 {
		t.Fatalf("%d items, want the first 1000", len(a))
	}
	same := true
	counts := make([]int, 4)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("item %d differs for the same seed", i)
		}
		same = same && a[i] == c[i]
		counts[a[i]]++
	}
	if same {
		t.Fatal("different seeds gave the same items")
	}
	for k, n := range counts {
		if n < 150 {
			t.Fatalf("artist t%d drawn only %d times in 1000: not uniform", k, n)
		}
	}
}

func TestAuctionSetupGivesWholeListOnce(t *testing.T) {
	t.Parallel()
	e := newEngine(t, 3, map[string]string{"artists": "5", "required": "4", "items": "50"})
	req := &arenav1.StartRequest{}
	e.Setup(1, req)
	s := req.GetAuction()
	if s.GetArtistsNum() != 5 || s.GetRequiredCount() != 4 || s.GetPlayerCount() != 3 || s.GetStartMoney() != 100 ||
		s.GetOwnName() != "p1" || strings.Join(s.GetPlayerNames(), ",") != "p0,p1,p2" || len(s.GetAuctionItems()) != 50 {
		t.Fatalf("setup %v", s)
	}
	for i, it := range s.GetAuctionItems() {
		if it != Artist(e.items[i]) {
			t.Fatalf("item %d is %q, engine has t%d", i, it, e.items[i])
		}
	}
	o := observe(e, 1)
	if o.GetBidItem() != "" || o.GetBidWinner() != "" || o.GetWinningBid() != -1 || o.GetItemIndex() != 0 || o.GetItem() != s.GetAuctionItems()[0] {
		t.Fatalf("first observation should report no previous round: %v", o)
	}
}

func TestAuctionEveryoneStartsWith100(t *testing.T) {
	t.Parallel()
	e := newEngine(t, 4, nil)
	o := observe(e, 0)
	for _, name := range []string{"p0", "p1", "p2", "p3"} {
		if o.GetWealthTable()[name] != 100 {
			t.Fatalf("wealth table %v", o.GetWealthTable())
		}
	}
	if o.GetOwnMoney() != 100 {
		t.Fatal("own money")
	}
}

func TestAuctionHighestBidWinsAndPays(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, nil), 2, 2, 2, 2)
	apply(t, e, bid(0, 10, 0), bid(1, 30, 2), bid(2, 29, 1))
	if e.Money(1) != 70 || e.Money(0) != 100 || e.Money(2) != 100 || e.Won(1, 2) != 1 {
		t.Fatalf("money %d %d %d, won %d", e.Money(0), e.Money(1), e.Money(2), e.Won(1, 2))
	}
	o := observe(e, 0)
	if o.GetBidItem() != "t2" || o.GetBidWinner() != "p1" || o.GetWinningBid() != 30 || o.GetWealthTable()["p1"] != 70 || o.GetItemIndex() != 1 {
		t.Fatalf("observation %v", o)
	}
}

func TestAuctionTieGoesToEarliestAnswer(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, nil), 0, 0, 0)
	// Seat 2 answered first (order 0) among the two bids of 40.
	apply(t, e, bid(0, 40, 1), bid(1, 12, 2), bid(2, 40, 0))
	if e.lastWinner != 2 || e.Money(2) != 60 || e.Money(0) != 100 {
		t.Fatalf("winner %d, money %d/%d", e.lastWinner, e.Money(0), e.Money(2))
	}
}

func TestAuctionTieAfterTransformationGoesToEarliest(t *testing.T) {
	t.Parallel()
	// The seed: "If several players all make the highest bid (perhaps after transformation)".
	e := withItems(newEngine(t, 2, nil), 0, 0, 0)
	apply(t, e, bid(0, 500, 0), bid(1, 0, 1))
	if e.lastWinner != 0 || e.lastBid != 0 || e.Money(0) != 100 {
		t.Fatalf("the over-bid became 0 and arrived first: winner %d bid %d", e.lastWinner, e.lastBid)
	}
}

func TestAuctionAllZeroEarliestWinsFree(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, nil), 1, 1, 1)
	apply(t, e, bid(0, 0, 2), bid(1, 0, 0), bid(2, 0, 1))
	if e.lastWinner != 1 || e.Money(1) != 100 || e.Won(1, 1) != 1 {
		t.Fatalf("winner %d money %d won %d", e.lastWinner, e.Money(1), e.Won(1, 1))
	}
	if o := observe(e, 0); o.GetBidWinner() != "p1" || o.GetWinningBid() != 0 {
		t.Fatalf("observation %v", o)
	}
}

func TestAuctionBidsTransformedToZero(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		bid  float64
	}{
		{"Overspend", 101},
		{"Negative", -5},
		{"NonInteger", 3.5},
		{"NaN", math.NaN()},
		{"Infinite", math.Inf(1)},
		{"Huge", 1e300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := withItems(newEngine(t, 2, nil), 0, 0, 0)
			// Seat 0's bad bid arrives first; seat 1 bids 1 and must win for 1.
			apply(t, e, bid(0, tc.bid, 0), bid(1, 1, 1))
			if e.lastWinner != 1 || e.lastBid != 1 || e.Money(0) != 100 || e.Disqualified(0) {
				t.Fatalf("winner %d bid %d money %d out %v", e.lastWinner, e.lastBid, e.Money(0), e.Disqualified(0))
			}
			f := e.Outcome().Faults
			if len(f) != 1 || f[0].Kind != game.FaultIllegal || f[0].Seat != 0 || f[0].Where != "round 1" || f[0].Penalty != "bid counts as 0" {
				t.Fatalf("faults %+v", f)
			}
		})
	}
}

func TestAuctionOverspendBecomesZero(t *testing.T) {
	t.Parallel()
	// After paying 60, seat 0 has 40: a bid of 41 becomes 0 (seed rule; the 2018 code
	// disqualified instead).
	e := withItems(newEngine(t, 2, nil), 0, 1, 2)
	apply(t, e, bid(0, 60, 0), bid(1, 0, 1))
	apply(t, e, bid(0, 41, 0), bid(1, 0, 1))
	if e.Disqualified(0) || e.Money(0) != 40 || e.lastWinner != 0 || e.lastBid != 0 {
		t.Fatalf("out %v money %d winner %d bid %d", e.Disqualified(0), e.Money(0), e.lastWinner, e.lastBid)
	}
	apply(t, e, bid(0, 40, 1), bid(1, 39, 0))
	if e.Money(0) != 0 || e.lastWinner != 0 {
		t.Fatal("a bid of all its money is fine")
	}
}

func TestAuctionNonIntegerBidBecomesZero(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, nil), 0, 0)
	apply(t, e, bid(0, 10.25, 0), bid(1, 2, 1))
	if e.lastWinner != 1 || e.Money(0) != 100 {
		t.Fatal("10.25 should count as 0")
	}
	apply(t, e, bid(0, 10.0, 0), bid(1, 2, 1))
	if e.lastWinner != 0 || e.Money(0) != 90 {
		t.Fatal("10.0 is a whole number")
	}
}

func TestAuctionFaultsDisqualify(t *testing.T) {
	t.Parallel()
	for _, k := range []game.FaultKind{game.FaultTimeout, game.FaultCrash, game.FaultGarbage} {
		t.Run(k.String(), func(t *testing.T) {
			t.Parallel()
			e := withItems(newEngine(t, 3, nil), 0, 0, 0, 0)
			apply(t, e, bid(0, 5, 0), fault(1, k), bid(2, 3, 1))
			if !e.Disqualified(1) || e.Done() {
				t.Fatalf("seat 1 should be out and the others play on")
			}
			if got := e.Pending(); len(got) != 2 || got[0] != 0 || got[1] != 2 {
				t.Fatalf("pending %v", got)
			}
			o := observe(e, 0)
			if o.GetWealthTable()["p1"] != -1 || o.GetWealthTable()["p0"] != 95 {
				t.Fatalf("wealth table %v", o.GetWealthTable())
			}
			f := e.Outcome().Faults
			if len(f) != 1 || f[0].Seat != 1 || f[0].Kind != k || f[0].Penalty != "disqualified" || f[0].Where != "round 1" {
				t.Fatalf("faults %+v", f)
			}
		})
	}
}

func TestAuctionCrashDisqualifies(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, nil), 0, 0, 0)
	// A crashed bid is not a bid: the other player wins the item even with 0.
	apply(t, e, fault(0, game.FaultCrash), bid(1, 0, 1))
	if !e.Disqualified(0) || e.Won(1, 0) != 1 {
		t.Fatal("crash must disqualify")
	}
}

func TestAuctionWrongGameAnswerIsGarbage(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, nil), 0, 0, 0)
	wrong := game.Answer{Seat: 0, Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{}}}}
	apply(t, e, wrong, bid(1, 1, 1), bid(2, 0, 2))
	if !e.Disqualified(0) || e.Outcome().Faults[0].Kind != game.FaultGarbage {
		t.Fatal("a dynamite move in an auction is garbage")
	}
}

func TestAuctionClockCharged(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, map[string]string{"clock": "10"}), 0, 1, 2, 3, 0, 1)
	a, b := bid(0, 0, 0), bid(1, 0, 1)
	a.Elapsed, b.Elapsed = 1500*time.Millisecond, 250*time.Millisecond
	apply(t, e, a, b)
	apply(t, e, a, b)
	o := observe(e, 0)
	if got := o.GetRemainTime()["p0"]; math.Abs(got-7) > 1e-9 {
		t.Fatalf("p0 has %v s left, want 7", got)
	}
	if got := o.GetRemainTime()["p1"]; math.Abs(got-9.5) > 1e-9 {
		t.Fatalf("p1 has %v s left, want 9.5", got)
	}
	if e.ClockLeft(0) != 7*time.Second {
		t.Fatal(e.ClockLeft(0))
	}
}

func TestAuctionClockOutDisqualifies(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, map[string]string{"clock": "2"}), 0, 1, 2, 3, 0, 1)
	a := bid(0, 50, 0)
	a.Elapsed = 2 * time.Second // the answer used the whole clock: it is out, its bid void
	apply(t, e, a, bid(1, 1, 1), bid(2, 0, 2))
	if !e.Disqualified(0) || e.lastWinner != 1 {
		t.Fatalf("out %v winner %d", e.Disqualified(0), e.lastWinner)
	}
	if f := e.Outcome().Faults; len(f) != 1 || f[0].Kind != game.FaultTimeout {
		t.Fatalf("faults %+v", f)
	}
	// The runner's own timeout when the clock runs out arrives as a timeout fault.
	apply(t, e, fault(1, game.FaultTimeout), bid(2, 0, 0))
	if !e.Done() || e.Winner() != 2 {
		t.Fatal("p2 is the last valid player")
	}
}

func TestAuctionRestPlayOn(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 4, nil), 0, 1, 2, 3, 0, 1, 2, 3)
	apply(t, e, fault(0, game.FaultCrash), bid(1, 0, 0), bid(2, 0, 1), bid(3, 0, 2))
	apply(t, e, bid(1, 3, 0), fault(2, game.FaultGarbage), bid(3, 0, 1))
	if e.Done() || len(e.Pending()) != 2 {
		t.Fatalf("two players left should play on: pending %v", e.Pending())
	}
	apply(t, e, bid(1, 0, 1), bid(3, 0, 0))
	if e.Rounds() != 3 || e.Won(3, 2) != 1 {
		t.Fatal("round 3 not played")
	}
}

func TestAuctionLastValidPlayerWins(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 3, nil), 0, 1, 2, 3)
	apply(t, e, fault(0, game.FaultCrash), bid(1, 0, 0), fault(2, game.FaultTimeout))
	if !e.Done() || e.Winner() != 1 {
		t.Fatalf("done %v winner %d", e.Done(), e.Winner())
	}
	out := e.Outcome()
	if out.Players[1].Result != game.ResultWin || out.Players[0].Result != game.ResultLoss || out.Players[2].Result != game.ResultLoss ||
		out.Players[1].Rank != 1 || out.Players[0].Rank != 2 {
		t.Fatalf("outcome %+v", out.Players)
	}
	if !strings.Contains(out.Summary, "last valid player") {
		t.Fatal(out.Summary)
	}
}

func TestAuctionNobodyLeftNoWinner(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, nil), 0, 1)
	apply(t, e, fault(0, game.FaultCrash), fault(1, game.FaultCrash))
	out := e.Outcome()
	if !e.Done() || e.Winner() != -1 || out.Players[0].Result != game.ResultLoss || out.Players[1].Result != game.ResultLoss {
		t.Fatalf("outcome %+v", out)
	}
	if o := observe(e, 0); o.GetBidWinner() != "" || o.GetWinningBid() != -1 || !o.GetFinished() {
		t.Fatalf("nobody bid: %v", o)
	}
}

func TestAuctionFirstToNWorksOfOneArtistWins(t *testing.T) {
	t.Parallel()
	// The seed's example: m=2, k=4 (t1..t4 there, t0..t3 here), n=3; items t2 t3 t4 t4 t4 t2 t3 t4
	// become 1 2 3 3 3 1 2 3. Player 0 wins the game on the eighth item.
	e := withItems(newEngine(t, 2, map[string]string{"artists": "4", "required": "3"}), 1, 2, 3, 3, 3, 1, 2, 3, 1, 3)
	history := []struct {
		winner int
		amount float64
	}{{1, 22}, {1, 15}, {0, 33}, {0, 33}, {1, 34}, {1, 22}, {1, 0}, {0, 8}}
	for i, h := range history {
		if e.Done() {
			t.Fatalf("over too early, before round %d", i+1)
		}
		apply(t, e, bid(h.winner, h.amount, 0), bid(1-h.winner, 0, 1))
	}
	if !e.Done() || e.Winner() != 0 {
		t.Fatalf("done %v winner %d", e.Done(), e.Winner())
	}
	if e.Money(0) != 100-33-33-8 || e.Money(1) != 100-22-15-34-22 {
		t.Fatalf("money %d %d", e.Money(0), e.Money(1))
	}
	// Player 1 owns 2 of t1 and 2 of t2: two of each never wins.
	if e.Won(1, 1) != 2 || e.Won(1, 2) != 2 || e.Won(1, 3) != 1 {
		t.Fatal("player 1's works")
	}
	o := e.observation(1)
	if !o.GetFinished() || o.GetGameWinner() != "p0" || o.GetBidWinner() != "p0" || o.GetWinningBid() != 8 {
		t.Fatalf("final observation %v", o)
	}
}

func TestAuctionDrawAfterAllItems(t *testing.T) {
	t.Parallel()
	// Three items, three players, one of each artist to each: nobody owns 2 of one artist.
	e2 := withItems(newEngine(t, 4, map[string]string{"artists": "3", "required": "2", "items": "3"}), 0, 1, 2)
	apply(t, e2, fault(2, game.FaultCrash), bid(0, 0, 0), bid(1, 0, 1), bid(3, 0, 2))
	apply(t, e2, bid(1, 0, 0), bid(0, 0, 1), bid(3, 0, 2))
	if e2.Done() {
		t.Fatal("over before the items ran out")
	}
	apply(t, e2, bid(3, 0, 0), bid(0, 0, 1), bid(1, 0, 2))
	if !e2.Done() || e2.Winner() != -1 {
		t.Fatalf("3 items, nobody with 2 works: done %v winner %d", e2.Done(), e2.Winner())
	}
	out := e2.Outcome()
	if out.Players[0].Result != game.ResultDraw || out.Players[1].Result != game.ResultDraw || out.Players[3].Result != game.ResultDraw ||
		out.Players[2].Result != game.ResultLoss {
		t.Fatalf("a draw for the valid players, a loss for the disqualified one: %+v", out.Players)
	}
	if out.Players[0].Rank != 1 || out.Players[1].Rank != 1 || out.Players[2].Rank != 4 || !strings.HasPrefix(out.Summary, "draw") {
		t.Fatalf("%+v %s", out.Players, out.Summary)
	}
}

func TestAuctionObservationIsPreviousRoundOnly(t *testing.T) {
	t.Parallel()
	e := newEngine(t, 5, map[string]string{"required": "1000"})
	first := len(mustMarshal(t, observe(e, 0)))
	for range 200 {
		apply(t, e, bid(0, 0, 0), bid(1, 0, 1), bid(2, 0, 2), bid(3, 0, 3), bid(4, 0, 4))
	}
	if n := len(mustMarshal(t, observe(e, 0))); n > first+40 {
		t.Fatalf("observation grew from %d to %d bytes over 200 rounds", first, n)
	}
}

func TestAuctionFinalObservation(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, map[string]string{"required": "1"}), 3)
	apply(t, e, bid(0, 7, 1), bid(1, 6, 0))
	end := &arenav1.EndRequest{}
	e.Final(1, end)
	o := end.GetAuction()
	if !o.GetFinished() || o.GetGameWinner() != "p0" || o.GetBidItem() != "t3" || o.GetWinningBid() != 7 ||
		o.GetWealthTable()["p0"] != 93 || end.GetResult() != arenav1.Result_RESULT_LOSS || o.GetItem() != "" {
		t.Fatalf("final %v", end)
	}
	e.Final(0, end)
	if end.GetResult() != arenav1.Result_RESULT_WIN || end.GetScore() != 1 {
		t.Fatalf("winner's final %v", end)
	}
}

func TestAuctionOutcomeTable(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, map[string]string{"required": "2", "artists": "2"}), 0, 1, 0)
	apply(t, e, bid(0, 10, 0), bid(1, 0, 1))
	apply(t, e, bid(0, 0, 1), bid(1, 5, 0))
	apply(t, e, bid(0, 20, 0), bid(1, 0, 1))
	tab := e.Outcome().Table
	want := [][]string{
		{"player", "result", "wealth", "clock left", "t0", "t1"},
		{"p0", "win", "70", "120.0s", "2", "0"},
		{"p1", "loss", "95", "120.0s", "0", "1"},
	}
	for i := range want {
		if strings.Join(tab[i], "|") != strings.Join(want[i], "|") {
			t.Fatalf("row %d: %q, want %q", i, tab[i], want[i])
		}
	}
}

func TestAuctionUniqueNames(t *testing.T) {
	t.Parallel()
	got := UniqueNames([]game.Player{{Name: "bob"}, {Name: "bob"}, {Name: ""}, {Name: "bob#2"}})
	if strings.Join(got, ",") != "bob,bob#2,player_2,bob#2#2" {
		t.Fatal(got)
	}
}

func TestAuctionParams(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		params map[string]string
		ok     bool
	}{
		{nil, true},
		{map[string]string{"artists": "0"}, false},
		{map[string]string{"required": "x"}, false},
		{map[string]string{"items": "0"}, false},
		{map[string]string{"clock": "30"}, true},
		{map[string]string{"clock": "0.5"}, true},
		{map[string]string{"clock": "0"}, false},
		{map[string]string{"clock": "soon"}, false},
		{map[string]string{"bogus": "1"}, false},
	} {
		_, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}, {Name: "b"}}, Params: tc.params})
		if (err == nil) != tc.ok {
			t.Errorf("%v: err %v", tc.params, err)
		}
	}
	if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}}}); err == nil {
		t.Error("one player must be refused")
	}
	e := newEngine(t, 2, nil)
	if e.artists != 4 || e.required != 3 || len(e.items) != 1000 || e.ClockLeft(0) != 120*time.Second {
		t.Fatalf("defaults %d %d %d %v", e.artists, e.required, len(e.items), e.ClockLeft(0))
	}
}

func TestAuctionApplyChecksSeats(t *testing.T) {
	t.Parallel()
	e := newEngine(t, 2, nil)
	if err := e.Apply([]game.Answer{bid(0, 1, 0)}); err == nil {
		t.Fatal("one answer for two pending seats")
	}
	if err := e.Apply([]game.Answer{bid(0, 1, 0), bid(0, 1, 1)}); err == nil {
		t.Fatal("two answers for one seat")
	}
	apply(t, e, fault(0, game.FaultCrash), bid(1, 0, 0))
	if err := e.Apply([]game.Answer{bid(0, 1, 0)}); err == nil {
		t.Fatal("apply after the end")
	}
}

func TestAuctionRoundReportedToEveryPlayer(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 4, map[string]string{"clock": "60"}), 3, 1, 1)
	a := bid(2, 17, 3)
	a.Elapsed = 2 * time.Second
	apply(t, e, bid(0, 3, 0), bid(1, 16, 1), a, bid(3, 0, 2))
	for s := range 4 {
		o := observe(e, s)
		if o.GetBidItem() != "t3" || o.GetBidWinner() != "p2" || o.GetWinningBid() != 17 || o.GetItem() != "t1" || o.GetItemIndex() != 1 ||
			len(o.GetWealthTable()) != 4 || o.GetWealthTable()["p2"] != 83 || o.GetRemainTime()["p2"] != 58 || len(o.GetRemainTime()) != 4 ||
			o.GetOwnMoney() != o.GetWealthTable()["p"+strconv.Itoa(s)] {
			t.Fatalf("seat %d sees %v", s, o)
		}
	}
}

func TestAuctionNegativeBidBecomesZero(t *testing.T) {
	t.Parallel()
	e := withItems(newEngine(t, 2, nil), 0, 0)
	apply(t, e, bid(0, -30, 0), bid(1, 0, 1))
	// -30 became 0 and arrived first: a free item, and no money gained.
	if e.lastWinner != 0 || e.Money(0) != 100 || e.Disqualified(0) {
		t.Fatalf("winner %d money %d", e.lastWinner, e.Money(0))
	}
}
