package tournament_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/store"
	"github.com/botarena/arena/arena/tournament"
)

// TestStandingsShowContentHash: the content hash stored with each bot is shown short in the
// standings table and whole in the CSV and JSON exports.
func TestStandingsShowContentHash(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.Open(filepath.Join(dir, "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	full := "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
	cfg := tournament.Config{Game: "dynamite", Seed: 1, Reps: 1, Entries: houseBots("paper", "rock")}
	raw, _ := json.Marshal(cfg)
	bots := []store.Bot{{Idx: 0, Name: "paper", Spec: cfg.Entries[0].Spec, Hash: full}, {Idx: 1, Name: "rock", Spec: cfg.Entries[1].Spec}}
	id, err := st.CreateTournament(ctx, store.Tournament{Name: "h", Game: "dynamite", Config: raw}, bots,
		[]store.Match{{Idx: 0, MatchID: "m0", Players: []int{0, 1}}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := tournament.Compute(ctx, st, id)
	if err != nil {
		t.Fatal(err)
	}
	var table bytes.Buffer
	if err := s.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), " hash") || !strings.Contains(table.String(), " 9f86d081884c\n") || strings.Contains(table.String(), full) {
		t.Fatalf("table does not show the short hash:\n%s", table.String())
	}
	csvPath := filepath.Join(dir, "s.csv")
	if _, err := s.WriteCSV(csvPath); err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(csvPath)
	if !strings.Contains(string(csv), "content_hash") || !strings.Contains(string(csv), full) {
		t.Fatalf("CSV lacks the hash:\n%s", csv)
	}
	jsonPath := filepath.Join(dir, "s.json")
	if err := s.WriteJSON(jsonPath); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Standings []struct {
			Bot  string `json:"bot"`
			Hash string `json:"content_hash"`
		} `json:"standings"`
	}
	b, _ := os.ReadFile(jsonPath)
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	hashes := map[string]string{}
	for _, r := range doc.Standings {
		hashes[r.Bot] = r.Hash
	}
	if hashes["paper"] != full || hashes["rock"] != "" {
		t.Fatalf("JSON hashes %v", hashes)
	}
}

func TestShortHash(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "-", "sha256:0123456789abcdef": "0123456789ab", "abc": "abc", "blake3:x:0123456789abcdefff": "0123456789ab"} {
		if got := tournament.ShortHash(in); got != want {
			t.Errorf("ShortHash(%q) = %q, want %q", in, got, want)
		}
	}
}
