package bidding_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/bidding"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	biddingbots "github.com/botarena/arena/bots/bidding"
)

// TestGolden plays fixed matches and compares them turn by turn with testdata/*.golden
// (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, p := range []gametest.Playthrough{
		// Sides swap every game; the solver against random bids.
		{Name: "strong-vs-random", Seed: 1, Params: map[string]string{"games": "6"},
			Players: []match.Player{
				players.NewInProcess("strong", biddingbots.Strong()),
				players.NewInProcess("random", biddingbots.RandomSeeded(1)),
			}},
		// Equal bids: the draw advantage decides and passes; undecided games are draws.
		{Name: "strong-vs-strong", Seed: 2, Params: map[string]string{"games": "2"},
			Players: []match.Player{
				players.NewInProcess("strong-a", biddingbots.Strong()),
				players.NewInProcess("strong-b", biddingbots.Strong()),
			}},
		// A crash abandons the game, lost by the bot that crashed.
		{Name: "crash-abandons", Seed: 3, Params: map[string]string{"games": "2", "start_money": "20"},
			Players: []match.Player{
				gametest.CrashFrom(players.NewInProcess("random-a", biddingbots.RandomSeeded(2)), 4),
				players.NewInProcess("random-b", biddingbots.RandomSeeded(3)),
			}},
	} {
		t.Run(p.Name, func(t *testing.T) { gametest.Golden(t, bidding.Spec, p) })
	}
}
