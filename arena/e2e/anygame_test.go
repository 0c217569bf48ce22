package e2e_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/arena/arena/host"
)

// anyGameKits are the kits whose any-game JSON path has a bot in testdata/anygame/<language>.
var anyGameKits = []string{"rust", "java", "cpp"}

// TestEveryKitPlaysAnyGame: a bot that adds no per-game code, only the kit's any-game path
// (the observation in, the action out, as JSON), plays dynamite against a house bot in the full
// sandbox without a fault, and its actions are the ones it wrote: exactly three dynamite.
func TestEveryKitPlaysAnyGame(t *testing.T) {
	t.Parallel()
	for _, lang := range anyGameKits {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join("testdata", "anygame", lang)
			res, procs := playWith(t, resolver, "dynamite", 2*time.Second, map[string]string{"target": "100", "rounds": "300"},
				dir, bot("bots/dynamite/cmd/paper"))
			o := res.Outcome
			if len(o.Faults) != 0 {
				t.Fatalf("%s: faults %+v", dir, o.Faults)
			}
			if res.Steps == 0 {
				t.Fatalf("%s: no move played", dir)
			}
			if got := o.Table[1][3]; got != "3" {
				t.Fatalf("%s used %s dynamite, want 3 (its table: %v)", dir, got, o.Table)
			}
			if os.Getenv(host.LaneEnvOff) != "grpc" && !procs[0].OnLane() {
				t.Fatalf("%s: its moves went over gRPC: the kit did not take the fast lane", dir)
			}
		})
	}
}
