package finger

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

func TestFingerIsRegistered(t *testing.T) {
	t.Parallel()
	s, err := game.Lookup(Name)
	if err != nil || s.Name != Name || s.New == nil {
		t.Fatalf("lookup: %v %v", s.Name, err)
	}
}

func TestFingerRejectsBadParams(t *testing.T) {
	t.Parallel()
	for _, p := range []map[string]string{{"games": "0"}, {"games": "x"}, {"max_rounds": "-1"}, {"rounds": "3"}} {
		if _, err := Spec.NewEngine(game.Config{Players: []game.Player{{Name: "a"}, {Name: "b"}}, Params: p}); err == nil {
			t.Errorf("params %v accepted", p)
		}
	}
}

func TestFingerRandomLegalPlayTerminates(t *testing.T) {
	t.Parallel()
	for seed := range uint64(5) {
		e := newMatch(t, map[string]string{"games": "200"})
		r := rand.New(rand.NewPCG(seed, 7))
		longest := 0
		playMatch(t, e, 200*5000, func(s int, req *arenav1.ActRequest) game.Answer {
			o := req.GetFinger()
			longest = max(longest, int(o.Round))
			a := RandomLegal(r, req)
			if a == nil {
				t.Fatalf("no legal move in %v", o)
			}
			return game.Answer{Action: a}
		})
		if len(e.faults) != 0 {
			t.Fatalf("seed %d: random legal moves were charged: %v", seed, e.faults[0])
		}
		if e.won[0]+e.won[1]+e.bothLost != 200 {
			t.Fatalf("seed %d: %v + %d games", seed, e.won, e.bothLost)
		}
		t.Logf("seed %d: %v, both lost %d, longest game %d moves", seed, e.won, e.bothLost, longest)
	}
}

// transcript plays a match with random legal moves from seed and writes every request.
func transcript(t *testing.T, seed uint64) (string, game.Outcome) {
	e := newMatch(t, map[string]string{"games": "20"})
	r := rand.New(rand.NewPCG(seed, 1))
	var log []byte
	playMatch(t, e, 20*5000, func(s int, req *arenav1.ActRequest) game.Answer {
		log = append(log, prototext.Format(req)...)
		if r.IntN(50) == 0 {
			return game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}}
		}
		return game.Answer{Action: RandomLegal(r, req)}
	})
	return string(log), e.Outcome()
}

func TestFingerSameAnswersSameMatch(t *testing.T) {
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

func TestFingerEverySeatGetsAnOutcome(t *testing.T) {
	t.Parallel()
	e := newMatch(t, map[string]string{"games": "5"})
	playMatch(t, e, 5*5000, randomPolicy(rand.New(rand.NewPCG(1, 1))))
	out := e.Outcome()
	if len(out.Players) != 2 || out.Summary == "" || len(out.Table) != 3 {
		t.Fatalf("outcome %+v", out)
	}
	for s, p := range out.Players {
		if p.Result == game.ResultNone || p.Rank < 1 {
			t.Errorf("seat %d: %+v", s, p)
		}
		var end arenav1.EndRequest
		e.Final(s, &end)
		if end.Result == arenav1.Result_RESULT_UNSPECIFIED {
			t.Errorf("seat %d: no final result", s)
		}
	}
	if e.Pending() != nil {
		t.Fatalf("pending %v after the end", e.Pending())
	}
	if err := e.Apply(nil); err == nil {
		t.Fatal("Apply after the end did not fail")
	}
}

func TestFingerAnswerForWrongSeatIsAnError(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	for _, answers := range [][]game.Answer{nil, {{Seat: 1}}, {{Seat: 0}, {Seat: 1}}} {
		if err := e.Apply(answers); err == nil {
			t.Errorf("answers %v accepted", answers)
		}
	}
}

func TestFingerDeadBotLosesRemainingGamesQuickly(t *testing.T) {
	t.Parallel()
	e := newMatch(t, nil)
	r := rand.New(rand.NewPCG(1, 2))
	n := playMatch(t, e, 2000, func(s int, req *arenav1.ActRequest) game.Answer {
		if s == 1 {
			return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash, Detail: "bot is gone"}}
		}
		return game.Answer{Action: RandomLegal(r, req)}
	})
	if e.won != [2]int{1000, 0} || n > 2000 {
		t.Fatalf("won %v in %d requests", e.won, n)
	}
	out := e.Outcome()
	if len(out.Faults) != 1000 || out.Table[2][4] != "1000" {
		t.Fatalf("%d faults, table %v", len(out.Faults), out.Table)
	}
}

// FuzzFinger feeds arbitrary answers and checks the invariants: no engine error, hands within
// 0..5, every game accounted for, every fault charged with a place and a penalty.
func FuzzFinger(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{5, 2, 0, 5, 0, 2, 5, 1, 1})
	f.Add([]byte{255, 128, 5, 200, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		e := newMatch(t, map[string]string{"games": "3", "max_rounds": "40"})
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		n := playMatch(t, e, 3*40, func(s int, req *arenav1.ActRequest) game.Answer {
			if len(data) == 0 {
				return game.Answer{Fault: &game.Fault{Kind: game.FaultCrash}}
			}
			b := next()
			switch b % 8 {
			case 6:
				return game.Answer{Fault: &game.Fault{Kind: game.FaultKind(next() % 5)}}
			case 7:
				return game.Answer{Action: &arenav1.ActResponse{}}
			}
			a := &arenav1.FingerAction{Move: arenav1.FingerMove(b % 8), SwitchLeft: int32(int8(next())), SwitchRight: int32(int8(next()))}
			return game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: a}}}
		})
		for s, h := range e.hands {
			for _, c := range h {
				if c < 0 || c > maxHand {
					t.Fatalf("seat %d hands %v", s, h)
				}
			}
		}
		if e.won[0]+e.won[1]+e.bothLost != 3 {
			t.Fatalf("games %v + %d after %d requests", e.won, e.bothLost, n)
		}
		for _, fr := range e.Outcome().Faults {
			if fr.Where == "" || fr.Penalty == "" || fr.Kind == game.FaultNone {
				t.Fatalf("fault %+v", fr)
			}
		}
	})
}
