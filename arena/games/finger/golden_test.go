package finger_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/finger"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	fingerbots "github.com/botarena/arena/bots/finger"
)

// TestGolden plays fixed matches and compares them turn by turn with testdata/*.golden
// (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, p := range []gametest.Playthrough{
		// Hits, lost hands and switches (the random bot switches often), the starter alternating.
		{Name: "strong-vs-random", Seed: 1, Params: map[string]string{"games": "6"},
			Players: []match.Player{
				players.NewInProcess("strong", fingerbots.StrongSeeded(1)),
				players.NewInProcess("random", fingerbots.RandomSeeded(2)),
			}},
		// Two solvers keep the draw until the move cap, where both lose.
		{Name: "move-cap", Seed: 2, Params: map[string]string{"games": "2", "max_rounds": "12"},
			Players: []match.Player{
				players.NewInProcess("strong-a", fingerbots.StrongSeeded(3)),
				players.NewInProcess("strong-b", fingerbots.StrongSeeded(4)),
			}},
		// A crash loses that game; the crashed bot loses every game after it too.
		{Name: "crash-loses", Seed: 3, Params: map[string]string{"games": "3"},
			Players: []match.Player{
				players.NewInProcess("random", fingerbots.RandomSeeded(5)),
				gametest.CrashFrom(players.NewInProcess("strong", fingerbots.StrongSeeded(6)), 9),
			}},
	} {
		t.Run(p.Name, func(t *testing.T) { gametest.Golden(t, finger.Spec, p) })
	}
}
