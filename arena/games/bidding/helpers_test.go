package bidding

import (
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// newMatch builds a bidding match between "alice" (seat 0) and "bob" (seat 1).
func newMatch(t testing.TB, params map[string]string) *engine {
	t.Helper()
	e, err := Spec.NewEngine(game.Config{Seed: 1, Players: []game.Player{{Name: "alice"}, {Name: "bob"}}, Params: params})
	if err != nil {
		t.Fatal(err)
	}
	return e.(*engine)
}

func bidAnswer(seat int, bid int64) game.Answer {
	return game.Answer{Seat: seat, Action: &arenav1.ActResponse{Action: &arenav1.ActResponse_Bidding{Bidding: &arenav1.BiddingAction{Bid: bid}}}}
}

// bid plays one round with alice bidding a and bob bidding b.
func bid(t testing.TB, e *engine, a, b int64) {
	t.Helper()
	if err := e.Apply([]game.Answer{bidAnswer(0, a), bidAnswer(1, b)}); err != nil {
		t.Fatal(err)
	}
}

func observe(e game.Engine, seat int) *arenav1.BiddingObservation {
	req := &arenav1.ActRequest{}
	e.Observe(seat, req)
	return req.GetBidding()
}

// playMatch drives e to the end (see gametest.Drive).
func playMatch(t testing.TB, e game.Engine, limit int, policy func(seat int, req *arenav1.ActRequest) game.Answer) int {
	t.Helper()
	return gametest.Drive(t, e, limit, policy)
}
