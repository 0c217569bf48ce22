package biddingbots

import (
	"context"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/bidding"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
)

// The same match through the real runner (in-process players, simultaneous asks, the runner's
// reused requests and responses) gives a clean result too.
func TestStrongBeatsRandomThroughRunner(t *testing.T) {
	t.Parallel()
	cfg := game.Config{Seed: 9, Players: []game.Player{{Name: "random"}, {Name: "strong"}}, Params: map[string]string{"games": "100"}}
	ps := []match.Player{players.NewInProcess("random", Random()), players.NewInProcess("strong", Strong())}
	res, err := match.Run(context.Background(), bidding.Spec, cfg, ps, match.Options{MatchID: "t"})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outcome
	if len(o.Faults) != 0 || o.Players[1].Result != game.ResultWin || o.Players[1].Score < 40 || o.Players[0].Score != 0 {
		t.Fatalf("%s; faults %v", o.Summary, o.Faults)
	}
	t.Log(o.Summary)
}
