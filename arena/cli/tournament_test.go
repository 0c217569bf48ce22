package cli_test

import (
	"encoding/csv"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/sandbox"
)

// TestTournamentEveryGameGoAndPython runs a small real tournament of Go and Python bots for
// every registered game, then reads it back with arena show and its exports.
func TestTournamentEveryGameGoAndPython(t *testing.T) {
	t.Parallel()
	b := func(rel string) string { return filepath.Join(root, rel) }
	type entry struct {
		game   string
		params []string
		bots   []string
		strong string
	}
	// Every registered game, with its short match's parameters: its strong house bot (the
	// baseline) against the game's Python and Go examples.
	var games []entry
	for _, name := range game.Names() {
		spec, err := game.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		e := entry{game: name}
		for _, k := range slices.Sorted(maps.Keys(spec.Short.Params)) {
			e.params = append(e.params, "--"+k, spec.Short.Params[k])
		}
		for _, h := range spec.House {
			if h.Strength == game.Strong && e.strong == "" {
				e.strong = h.Name
			}
		}
		e.bots = []string{b(filepath.Join("bots", name, "cmd", e.strong)), b(filepath.Join("examples", "python", name, "bot.py")), b(filepath.Join("examples", "go", name))}
		games = append(games, e)
	}
	for _, g := range games {
		t.Run(g.game, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			store := filepath.Join(dir, "t.db")
			args := append([]string{"tournament", g.game, "--store", store, "--name", "t", "--seed", "5", "--plain", "--jobs", "1"}, g.params...)
			code, out := run(t, append(args, g.bots...)...)
			if code != 0 || !strings.Contains(out, "rank") || strings.Contains(out, "failed 1") {
				t.Fatalf("tournament (exit %d):\n%s", code, out)
			}
			// Every game plays on the CPU clock wherever cgroups count CPU time (realtv's
			// eleven instances of a script share one process and its cgroup).
			if sandbox.Probe().Active(sandbox.LayerCPU) && !strings.Contains(out, ", cpu clock,") {
				t.Fatalf("tournament not on the CPU clock:\n%s", out)
			}
			for _, name := range []string{g.strong, "python/", "go/"} {
				if !strings.Contains(out, name) {
					t.Fatalf("standings do not show %q:\n%s", name, out)
				}
			}
			code, out = run(t, "show", store, "t", "--matches", "--csv", filepath.Join(dir, "s.csv"), "--json", filepath.Join(dir, "s.json"))
			if code != 0 || !strings.Contains(out, "done") {
				t.Fatalf("show (exit %d):\n%s", code, out)
			}
			// The stored clock, read back.
			if sandbox.Probe().Active(sandbox.LayerCPU) && !strings.Contains(out, ", cpu clock,") {
				t.Fatalf("show does not give the stored clock:\n%s", out)
			}
			f, err := os.Open(filepath.Join(dir, "s.csv"))
			if err != nil {
				t.Fatal(err)
			}
			rows, err := csv.NewReader(f).ReadAll()
			f.Close()
			if err != nil || len(rows) != 1+len(g.bots) {
				t.Fatalf("standings CSV: %d rows, %v", len(rows), err)
			}
			raw, err := os.ReadFile(filepath.Join(dir, "s.json"))
			var doc map[string]any
			if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc) == 0 {
				t.Fatalf("standings JSON: %v %s", err, raw)
			}
		})
	}
}
