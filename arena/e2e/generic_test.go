package e2e_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/arena/arena/host"
)

// genericGames are games whose every action field at its first value (an enum's first value
// after UNSPECIFIED, any other field's default) is always legal, so a bot with no per-game code
// plays them without a fault: dynamite's rock. (Bidding's bid of 0 is not: the least bid is 1.)
var genericGames = []struct {
	name, house string
	params      map[string]string
}{
	{"dynamite", "bots/dynamite/cmd/paper", map[string]string{"target": "50", "rounds": "150"}},
}

// TestGenericPathPlaysAnyGame: in the Go, Python, JavaScript and TypeScript kits a bot with no
// per-game code (each kit's generic path, reading the game from the generated tables) plays
// real matches in the full sandbox without a fault, on the fast lane.
func TestGenericPathPlaysAnyGame(t *testing.T) {
	t.Parallel()
	for _, lang := range []string{"go", "python", "javascript", "typescript"} {
		t.Run(lang, func(t *testing.T) {
			dir, r := bot(filepath.Join("arena/e2e/testdata/anygame", lang)), resolverOf(lang)
			for _, g := range genericGames {
				t.Run(g.name, func(t *testing.T) {
					res, procs := playWith(t, r, g.name, 2*time.Second, g.params, dir, bot(g.house))
					for _, f := range res.Outcome.Faults {
						if f.Seat == 0 {
							t.Fatalf("%s: fault %+v", dir, f)
						}
					}
					if res.Steps == 0 {
						t.Fatalf("%s: no move played", dir)
					}
					if os.Getenv(host.LaneEnvOff) != "grpc" && !procs[0].OnLane() {
						t.Fatalf("%s: its moves went over gRPC: the kit did not take the fast lane", dir)
					}
				})
			}
		})
	}
}
