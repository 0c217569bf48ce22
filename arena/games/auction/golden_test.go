package auction_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/auction"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	auctionbots "github.com/botarena/arena/bots/auction"
)

// TestGolden plays fixed matches and compares them turn by turn with testdata/*.golden
// (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, p := range []gametest.Playthrough{
		// Three players; random bids tie now and then (the first answer wins), and a crash
		// disqualifies one of them while the others play on.
		{Name: "collector-samples-crash", Seed: 1, Params: map[string]string{"artists": "3", "required": "4"},
			Players: []match.Player{
				players.NewInProcess("collector", auctionbots.Collector()),
				players.NewInProcess("sample", auctionbots.SampleSeeded(1)),
				gametest.CrashFrom(players.NewInProcess("quitter", auctionbots.SampleSeeded(2)), 5),
			}},
		// Two random bidders run out of money: all-zero rounds go to the earliest zero.
		{Name: "samples", Seed: 2, Params: map[string]string{"artists": "5", "required": "5"},
			Players: []match.Player{
				players.NewInProcess("sample-a", auctionbots.SampleSeeded(3)),
				players.NewInProcess("sample-b", auctionbots.SampleSeeded(4)),
			}},
	} {
		t.Run(p.Name, func(t *testing.T) { gametest.Golden(t, auction.Spec, p) })
	}
}
