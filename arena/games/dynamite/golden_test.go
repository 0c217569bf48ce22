package dynamite_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
)

// TestGolden plays fixed matches and compares them turn by turn with testdata/*.golden
// (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, p := range []gametest.Playthrough{
		// Dynamite against dynamite draws and rolls the stake over; beatlast spends its
		// dynamite on big stakes and throws water when the other side does.
		{Name: "beatlast-vs-dynamite", Seed: 1, Params: map[string]string{"target": "40", "dynamite": "6"},
			Players: []match.Player{
				players.NewInProcess("beatlast", dynamitebots.BeatLastSeeded(1)),
				players.NewInProcess("dynamite", dynamitebots.DynamiteSeeded(2)),
			}},
		// The round cap: neither reaches the target, the higher score wins.
		{Name: "round-cap", Seed: 2, Params: map[string]string{"target": "1000", "rounds": "30", "dynamite": "3"},
			Players: []match.Player{
				players.NewInProcess("beatlast", dynamitebots.BeatLastSeeded(3)),
				players.NewInProcess("paper", dynamitebots.Paper()),
			}},
		// A crash forfeits the match.
		{Name: "crash-forfeits", Seed: 3, Params: map[string]string{"target": "100"},
			Players: []match.Player{
				players.NewInProcess("scissors", dynamitebots.Scissors()),
				gametest.CrashFrom(players.NewInProcess("beatlast", dynamitebots.BeatLastSeeded(4)), 12),
			}},
	} {
		t.Run(p.Name, func(t *testing.T) { gametest.Golden(t, dynamite.Spec, p) })
	}
}
