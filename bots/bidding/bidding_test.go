package biddingbots

import (
	"context"
	"strconv"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/bidding"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/sdk"
)

// play runs a bidding match between two Go bots in-process, through the real match runner.
func play(t *testing.T, games int, bots [2]sdk.Bot) game.Outcome {
	t.Helper()
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: bots[0].Name + "-0"}, {Name: bots[1].Name + "-1"}},
		Params: map[string]string{"games": strconv.Itoa(games)}}
	res, err := players.Play(context.Background(), bidding.Spec, cfg, bots[:]...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome
}

func TestRandomBidsAreAlwaysValid(t *testing.T) {
	t.Parallel()
	out := play(t, 200, [2]sdk.Bot{Random(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("random made faults: %+v", out.Faults[0])
	}
	t.Log(out.Summary)
}

func TestStrongBeatsRandomClearly(t *testing.T) {
	t.Parallel()
	const games = 400
	out := play(t, games, [2]sdk.Bot{Strong(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	won, lost := out.Players[0].Score, out.Players[1].Score
	t.Logf("%s; table %v", out.Summary, out.Table)
	// Strong cannot lose a game at all: the start is a forced draw and it never gives that up.
	if out.Players[0].Result != game.ResultWin || won < 0.5*games || lost != 0 {
		t.Fatalf("strong won %v, random %v of %d", won, lost, games)
	}
}

func TestStrongAgainstItself(t *testing.T) {
	t.Parallel()
	out := play(t, 20, [2]sdk.Bot{Strong(), Strong()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	t.Log(out.Summary)
}
