package kitgen_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/internal/kitgen"
)

// TestGeneratedFilesAreFresh: every committed kit file is exactly what the generator writes
// from the protos compiled into this binary; a stale one names the command that fixes it.
func TestGeneratedFilesAreFresh(t *testing.T) {
	s, err := kitgen.Load()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range kitgen.Files(s) {
		got, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Errorf("%s: %v: run scripts/generate.sh", path, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run scripts/generate.sh and commit the result", path)
		}
		if !strings.Contains(string(got), kitgen.Header) {
			t.Errorf("%s lacks the generated-code header", path)
		}
	}
}

// TestGamesAreTheRegistry: the games read from the protos' oneof cases are the registered
// games, each with its three messages.
func TestGamesAreTheRegistry(t *testing.T) {
	s, err := kitgen.Load()
	if err != nil {
		t.Fatal(err)
	}
	got, want := slices.Sorted(slices.Values(s.Names())), slices.Sorted(slices.Values(game.Names()))
	if !slices.Equal(got, want) {
		t.Fatalf("games in the protos %v, in the registry %v", got, want)
	}
	for _, g := range s.Games {
		if g.Setup == nil || g.Observation == nil || g.Action == nil {
			t.Fatalf("game %s lacks a message: %+v", g.Name, g)
		}
		if len(g.Action.Fields) == 0 {
			t.Fatalf("game %s: action %s has no fields", g.Name, g.Action.Name)
		}
	}
	if m := s.Message("DynamiteObservation"); m == nil || m.Fields[1].JSON != "lastOwn" || m.Fields[1].Kind != "enum" || m.Fields[1].Type != "DynamiteMove" {
		t.Fatalf("DynamiteObservation read as %+v", m)
	}
}
