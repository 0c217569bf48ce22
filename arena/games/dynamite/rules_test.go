package dynamite

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

func newEngine(t *testing.T, params map[string]string) *Engine {
	t.Helper()
	e, err := Spec.NewEngine(game.Config{Seed: 1, Players: []game.Player{{Name: "a"}, {Name: "b"}}, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return e.(*Engine)
}

func act(m move) game.Answer {
	return game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: m}}}}
}

func play(t *testing.T, e *Engine, a, b game.Answer) {
	t.Helper()
	a.Seat, b.Seat = 0, 1
	// Judged as the runner judges them: the engine sees a dynamite move or a fault.
	if err := e.Apply([]game.Answer{game.JudgeAnswer(Spec.Name, a), game.JudgeAnswer(Spec.Name, b)}); err != nil {
		t.Fatal(err)
	}
}

func TestDynamiteWhatBeatsWhat(t *testing.T) {
	t.Parallel()
	wins := map[move][]move{rock: {scissors, water}, paper: {rock, water}, scissors: {paper, water},
		dyn: {rock, paper, scissors}, water: {dyn}}
	all := []move{rock, paper, scissors, dyn, water}
	for _, a := range all {
		for _, b := range all {
			want := false
			for _, w := range wins[a] {
				want = want || w == b
			}
			if Beats(a, b) != want {
				t.Errorf("Beats(%s, %s) = %v, want %v", Letter(a), Letter(b), !want, want)
			}
		}
	}
}

func TestDynamiteDrawsRollOver(t *testing.T) {
	t.Parallel()
	e := newEngine(t, nil)
	play(t, e, act(rock), act(rock))
	play(t, e, act(paper), act(paper))
	play(t, e, act(rock), act(scissors)) // worth 3
	if e.score != [2]int{3, 0} {
		t.Fatalf("score %v after two draws then a win, want [3 0]", e.score)
	}
	play(t, e, act(rock), act(scissors)) // back to 1
	if e.score != [2]int{4, 0} {
		t.Fatalf("score %v, want [4 0]: the stake must go back to 1", e.score)
	}
}

func TestDynamiteFirstToTargetWins(t *testing.T) {
	t.Parallel()
	e := newEngine(t, nil)
	for range 999 {
		play(t, e, act(paper), act(rock))
	}
	if e.Done() {
		t.Fatal("over at 999 points")
	}
	play(t, e, act(paper), act(rock))
	if !e.Done() || e.Outcome().Players[0].Result != game.ResultWin {
		t.Fatalf("not won at 1000: done=%v outcome=%+v", e.Done(), e.Outcome())
	}
}

func TestDynamiteCapHigherScoreWins(t *testing.T) {
	t.Parallel()
	e := newEngine(t, map[string]string{"rounds": "5"})
	play(t, e, act(paper), act(rock))
	for range 4 {
		play(t, e, act(rock), act(rock))
	}
	o := e.Outcome()
	if !e.Done() || o.Players[0].Result != game.ResultWin || e.Rounds() != 5 {
		t.Fatalf("cap: done=%v rounds=%d %+v", e.Done(), e.Rounds(), o.Players)
	}
}

func TestDynamiteCapEqualIsDraw(t *testing.T) {
	t.Parallel()
	e := newEngine(t, map[string]string{"rounds": "2"})
	play(t, e, act(paper), act(rock))
	play(t, e, act(rock), act(paper))
	o := e.Outcome()
	if !e.Done() || o.Players[0].Result != game.ResultDraw || o.Players[1].Result != game.ResultDraw {
		t.Fatalf("equal at cap: %+v", o.Players)
	}
}

func TestDynamite101stDynamiteForfeits(t *testing.T) {
	t.Parallel()
	e := newEngine(t, nil)
	for range 100 {
		play(t, e, act(dyn), act(water))
	}
	if e.Done() {
		t.Fatal("100 dynamite must be allowed")
	}
	play(t, e, act(dyn), act(rock))
	o := e.Outcome()
	if !e.Done() || o.Players[1].Result != game.ResultWin || len(o.Faults) != 1 || o.Faults[0].Kind != game.FaultIllegal {
		t.Fatalf("101st dynamite: %+v", o)
	}
}

func TestDynamiteFaultsForfeit(t *testing.T) {
	t.Parallel()
	cases := map[string]game.Answer{
		"timeout": {Fault: &game.Fault{Kind: game.FaultTimeout}},
		"crash":   {Fault: &game.Fault{Kind: game.FaultCrash}},
		"garbage": {Action: &arenav1.ActResponse{}},
		"illegal": act(move(42)),
		"unspec":  act(none),
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEngine(t, nil)
			play(t, e, act(rock), act(rock))
			play(t, e, act(rock), bad)
			o := e.Outcome()
			if !e.Done() || o.Players[0].Result != game.ResultWin || o.Players[1].Result != game.ResultLoss {
				t.Fatalf("%s: %+v", name, o)
			}
			if len(o.Faults) != 1 || o.Faults[0].Seat != 1 || o.Faults[0].Where != "round 2" {
				t.Fatalf("%s: faults %+v", name, o.Faults)
			}
		})
	}
}

func TestDynamiteBothForfeitNobodyWins(t *testing.T) {
	t.Parallel()
	e := newEngine(t, nil)
	play(t, e, game.Answer{Fault: &game.Fault{Kind: game.FaultCrash}}, game.Answer{Fault: &game.Fault{Kind: game.FaultTimeout}})
	o := e.Outcome()
	if o.Players[0].Result != game.ResultLoss || o.Players[1].Result != game.ResultLoss {
		t.Fatalf("double forfeit: %+v", o.Players)
	}
}

func TestDynamiteObservationDoesNotGrow(t *testing.T) {
	t.Parallel()
	e := newEngine(t, map[string]string{"target": "100000"})
	size := func() int {
		var r arenav1.ActRequest
		e.Observe(0, &r)
		return proto.Size(&r)
	}
	play(t, e, act(rock), act(paper))
	early := size()
	for range 2000 {
		play(t, e, act(paper), act(rock))
	}
	if late := size(); late > early+8 {
		t.Fatalf("request grew from %d to %d bytes", early, late)
	}
}

func TestDynamiteSeesOwnMoveAsP1(t *testing.T) {
	t.Parallel()
	e := newEngine(t, nil)
	play(t, e, act(rock), act(water))
	var r0, r1 arenav1.ActRequest
	e.Observe(0, &r0)
	e.Observe(1, &r1)
	if r0.GetDynamite().GetLastOwn() != rock || r0.GetDynamite().GetLastOpponent() != water ||
		r1.GetDynamite().GetLastOwn() != water || r1.GetDynamite().GetLastOpponent() != rock {
		t.Fatalf("points of view: %v / %v", r0.GetDynamite(), r1.GetDynamite())
	}
}
