package bidding

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"google.golang.org/protobuf/encoding/prototext"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Engine-level properties the shared contract suite also checks; kept here so the package
// stands on its own.

func TestBiddingIsRegistered(t *testing.T) {
	t.Parallel()
	if s, err := game.Lookup(Name); err != nil || s.Name != Name {
		t.Fatalf("lookup: %v", err)
	}
}

func TestBiddingRejectsBadParams(t *testing.T) {
	t.Parallel()
	for _, p := range []map[string]string{{"games": "0"}, {"start_money": "-1"}, {"rounds": "x"}, {"max_rounds": "3"}} {
		if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}, {Name: "b"}}, Params: p}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
	if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}}}); err == nil {
		t.Error("one player accepted")
	}
}

func TestBiddingRandomLegalPlayTerminates(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	r := rand.New(rand.NewPCG(1, 2))
	n := playMatch(t, e, 100*10*2, func(_ int, req *arenav1.ActRequest) game.Answer {
		return game.Answer{Action: RandomLegal(r, req)}
	})
	if len(e.faults) != 0 || e.won[0]+e.won[1]+e.drawn != 100 {
		t.Fatalf("faults %v won %v drawn %d", e.faults, e.won, e.drawn)
	}
	t.Logf("%d requests: %s", n, e.Outcome().Summary)
}

func transcript(t *testing.T, seed uint64) (string, game.Outcome) {
	e := newMatch(t, map[string]string{"games": "20"})
	r := rand.New(rand.NewPCG(seed, 1))
	var log []byte
	playMatch(t, e, 20*10*2, func(_ int, req *arenav1.ActRequest) game.Answer {
		log = append(log, prototext.Format(req)...)
		if r.IntN(40) == 0 {
			return game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}}
		}
		return game.Answer{Action: RandomLegal(r, req)}
	})
	return string(log), e.Outcome()
}

func TestBiddingSameAnswersSameMatch(t *testing.T) {
	t.Parallel()
	a, oa := transcript(t, 3)
	b, ob := transcript(t, 3)
	c, _ := transcript(t, 4)
	if a != b || !reflect.DeepEqual(oa, ob) {
		t.Fatal("the same answers gave different matches")
	}
	if a == c {
		t.Fatal("different answers gave the same transcript: the test cannot fail")
	}
}

func TestBiddingEverySeatGetsAnOutcome(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "6"})
	r := rand.New(rand.NewPCG(5, 5))
	playMatch(t, e, 6*10*2, func(_ int, req *arenav1.ActRequest) game.Answer { return game.Answer{Action: RandomLegal(r, req)} })
	out := e.Outcome()
	if len(out.Players) != 2 || out.Summary == "" || len(out.Table) != 3 {
		t.Fatalf("outcome %+v", out)
	}
	for s, p := range out.Players {
		var end arenav1.EndRequest
		e.Final(s, &end)
		if p.Result == game.ResultNone || p.Rank < 1 || end.Result == arenav1.Result_RESULT_UNSPECIFIED {
			t.Errorf("seat %d: %+v final %v", s, p, &end)
		}
	}
	if e.Pending() != nil || e.Apply([]game.Answer{bidAnswer(0, 1), bidAnswer(1, 1)}) == nil {
		t.Fatal("the match goes on after its end")
	}
}

func TestBiddingAnswersMustCoverBothSeats(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	for _, answers := range [][]game.Answer{nil, {bidAnswer(0, 1)}, {bidAnswer(0, 1), bidAnswer(0, 1)}, {bidAnswer(0, 1), bidAnswer(2, 1)}} {
		if err := e.Apply(answers); err == nil {
			t.Errorf("answers for seats %v accepted", answers)
		}
	}
}

func TestBiddingDeadBotLosesRemainingGamesQuickly(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	n := playMatch(t, e, 200, func(s int, req *arenav1.ActRequest) game.Answer {
		if s == 0 {
			return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash, Detail: "bot is gone"}}
		}
		return bidAnswer(s, 1)
	})
	if e.won != [2]int{0, 100} || n != 200 || len(e.Outcome().Faults) != 100 {
		t.Fatalf("won %v in %d requests", e.won, n)
	}
}

// FuzzBidding feeds arbitrary answers and checks the invariants: no engine error, money never
// negative nor above the start, the bottle on the board, every game accounted for.
func FuzzBidding(f *testing.F) {
	f.Add([]byte{1, 1, 50, 60, 100, 0, 3, 3})
	f.Add([]byte{0, 0, 255, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		e := newMatch(t, map[string]string{"games": "3", "start_money": "20"})
		playMatch(t, e, 3*10*2, func(s int, req *arenav1.ActRequest) game.Answer {
			if len(data) == 0 {
				return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash}}
			}
			b := data[0]
			data = data[1:]
			switch {
			case b == 255:
				return game.Answer{Action: &arenav1.ActResponse{}}
			case b >= 250:
				return game.Answer{Fault: &game.Fault{Kind: game.FaultKind(b % 5)}}
			}
			return bidAnswer(s, int64(b)-5)
		})
		for s := range 2 {
			if e.money[s] < 0 || e.money[s] > 20 {
				t.Fatalf("money %v", e.money)
			}
		}
		if e.bottle < 0 || e.bottle > lastPlace {
			t.Fatalf("bottle %d", e.bottle)
		}
		if e.won[0]+e.lost[0]+e.drawn != 3 || e.won[1]+e.lost[1]+e.drawn != 3 {
			t.Fatalf("won %v lost %v drawn %d", e.won, e.lost, e.drawn)
		}
		for _, fr := range e.faults {
			if fr.Where == "" || fr.Penalty == "" || fr.Kind == game.FaultNone {
				t.Fatalf("fault %+v", fr)
			}
		}
	})
}
