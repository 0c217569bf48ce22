package cli_test

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/sandbox"
)

// TestTournamentEveryGameGoAndPython runs a small real tournament of Go and Python bots for
// each of the five games, then reads it back with arena show and its exports.
func TestTournamentEveryGameGoAndPython(t *testing.T) {
	t.Parallel()
	b := func(rel string) string { return filepath.Join(root, rel) }
	games := []struct {
		game   string
		params []string
		bots   []string
	}{
		{"dynamite", []string{"--target", "20"}, []string{b("bots/dynamite/cmd/beatlast"), b("examples/python/dynamite/bot.py"), b("examples/go/dynamite")}},
		{"finger", []string{"--games", "4"}, []string{b("bots/finger/cmd/strong"), b("examples/python/finger/bot.py"), b("examples/go/finger")}},
		{"bidding", []string{"--games", "4"}, []string{b("bots/bidding/cmd/strong"), b("examples/python/bidding/bot.py"), b("examples/go/bidding")}},
		{"auction", []string{"--items", "40", "--table", "3"}, []string{b("bots/auction/cmd/collector"), b("examples/python/auction/bot.py"), b("examples/go/auction")}},
		{"realtv", []string{"--phases", "2"}, []string{b("bots/realtv/cmd/schemer"), b("examples/python/realtv/bot.py"), b("examples/go/realtv")}},
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
			for _, name := range []string{"beatlast", "strong", "collector", "schemer", "python/", "go/"} {
				if strings.Contains(strings.Join(g.bots, " "), strings.TrimSuffix(name, "/")) && !strings.Contains(out, name) {
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
