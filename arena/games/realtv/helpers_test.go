package realtv

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// contest builds a contest of n scripts named s0, s1, ...
func contest(t *testing.T, seed uint64, n, phases int) *Engine {
	t.Helper()
	cfg := game.Config{Seed: seed, Params: map[string]string{"phases": strconv.Itoa(phases)}}
	for i := range n {
		cfg.Players = append(cfg.Players, game.Player{Name: "s" + strconv.Itoa(i)})
	}
	eng, err := Spec.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return eng.(*Engine)
}

// rig replaces the current phase by one island holding the given players in that order:
// a strength >= 0 is an instance (seats 0, 1, ... of a 2-script contest, given that strength),
// a strength written as filler(s) is a filler bot. It returns the engine; seats are 0..k-1.
func rig(t *testing.T, seed uint64, phases int, strengths ...int) *Engine {
	t.Helper()
	e := contest(t, seed, 2, phases)
	isl := &island{index: 0}
	seat := 0
	for _, s := range strengths {
		if s < 0 {
			isl.members = append(isl.members, member{seat: -1, id: e.newID(), name: FillerName, strength: filler(s)})
			continue
		}
		in := &e.inst[seat]
		in.strength = s
		in.island, in.member = 0, len(isl.members)
		isl.members = append(isl.members, member{seat: seat, id: in.id, name: e.names[in.player], strength: s})
		seat++
	}
	e.islands = []*island{isl}
	e.totalBots = 0
	e.beginDay(isl)
	e.refreshPending()
	return e
}

// filler(s) marks a filler bot of strength s in rig's list (and decodes it back).
func filler(s int) int { return -1 - s }

// id of a seat.
func id(e *Engine, seat int) string { return e.inst[seat].id }

// voteFor answers a vote for the player with that id.
func voteFor(id string) game.Answer {
	return game.Answer{Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Realtv{Realtv: &arenav1.RealtvAction{VoteId: id}}}}
}

func faultOf(k game.FaultKind) game.Answer {
	return game.Answer{Fault: &game.Fault{Kind: k, Detail: "test " + k.String()}}
}

// play applies one step: answer is called for every pending seat with its observation.
func play(t *testing.T, e *Engine, answer func(seat int, o *arenav1.RealtvObservation) game.Answer) {
	t.Helper()
	var answers []game.Answer
	for i, s := range e.Pending() {
		req := &arenav1.ActRequest{}
		e.Observe(s, req)
		// Judged as the runner judges them: the engine sees a realtv vote or a fault.
		a := game.JudgeAnswer(Spec.Name, answer(s, req.GetRealtv()))
		a.Seat, a.Order = s, i
		answers = append(answers, a)
	}
	if err := e.Apply(answers); err != nil {
		t.Fatal(err)
	}
}

// votes applies one step where seat i answers with the i-th answer.
func votes(t *testing.T, e *Engine, by ...game.Answer) {
	t.Helper()
	if len(by) != len(e.Pending()) {
		t.Fatalf("%d answers for pending %v", len(by), e.Pending())
	}
	byseat := map[int]game.Answer{}
	for i, s := range e.Pending() {
		byseat[s] = by[i]
	}
	play(t, e, func(seat int, _ *arenav1.RealtvObservation) game.Answer { return byseat[seat] })
}

func observe(e *Engine, seat int) *arenav1.RealtvObservation {
	req := &arenav1.ActRequest{}
	e.Observe(seat, req)
	return req.GetRealtv()
}

func (isl *island) statusOf(e *Engine, seat int) status {
	return isl.members[e.inst[seat].member].status
}

func wantScores(t *testing.T, e *Engine, want ...float64) {
	t.Helper()
	for s, w := range want {
		if got := e.Score(s); fmt.Sprintf("%.6f", got) != fmt.Sprintf("%.6f", w) {
			t.Fatalf("seat %d scores %v, want %v (all: %v)", s, got, w, scoresOf(e, len(want)))
		}
	}
}

func scoresOf(e *Engine, n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = e.Score(i)
	}
	return out
}
