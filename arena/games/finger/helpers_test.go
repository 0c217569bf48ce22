package finger

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// newMatch builds a finger match between "alice" (seat 0) and "bob" (seat 1).
func newMatch(t testing.TB, params map[string]string) *engine {
	t.Helper()
	e, err := Spec.NewEngine(game.Config{Seed: 1, Players: []game.Player{{Name: "alice"}, {Name: "bob"}}, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return e.(*engine)
}

func hitMove(m arenav1.FingerMove) *arenav1.FingerAction { return &arenav1.FingerAction{Move: m} }

func switchMove(l, r int32) *arenav1.FingerAction {
	return &arenav1.FingerAction{Move: arenav1.FingerMove_FINGER_MOVE_SWITCH, SwitchLeft: l, SwitchRight: r}
}

var (
	ll = hitMove(arenav1.FingerMove_FINGER_MOVE_LEFT_TO_LEFT)
	lr = hitMove(arenav1.FingerMove_FINGER_MOVE_LEFT_TO_RIGHT)
	rl = hitMove(arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_LEFT)
	rr = hitMove(arenav1.FingerMove_FINGER_MOVE_RIGHT_TO_RIGHT)
)

// answer wraps a finger action as the pending seat's answer.
func answer(e *engine, a *arenav1.FingerAction) []game.Answer {
	return []game.Answer{{Seat: e.Pending()[0], Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Finger{Finger: a}}}}
}

// move applies a for the pending seat and fails the test on an engine error.
func move(t testing.TB, e *engine, a *arenav1.FingerAction) {
	t.Helper()
	if err := e.Apply(answer(e, a)); err != nil {
		t.Fatal(err)
	}
}

// observe returns what seat sees now.
func observe(e game.Engine, seat int) *arenav1.FingerObservation {
	req := &arenav1.ActRequest{}
	e.Observe(seat, req)
	return req.GetFinger()
}

// playMatch drives e to the end (see gametest.Drive).
func playMatch(t testing.TB, e game.Engine, limit int, policy func(seat int, req *arenav1.ActRequest) game.Answer) int {
	t.Helper()
	return gametest.Drive(t, e, limit, policy)
}

// randomPolicy plays uniformly random legal moves.
func randomPolicy(r *rand.Rand) func(int, *arenav1.ActRequest) game.Answer {
	return func(_ int, req *arenav1.ActRequest) game.Answer {
		return game.Answer{Action: RandomLegal(r, req)}
	}
}
