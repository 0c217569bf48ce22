package replay_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/arena/replay"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
)

func record(t *testing.T) *replay.Record {
	t.Helper()
	cfg := game.Config{Seed: 9, Players: []game.Player{{Name: "beatlast"}, {Name: "dynamite"}}}
	rec := replay.NewRecorder("dynamite", "r1", cfg, []string{"beatlast", "dynamite"})
	ps := []match.Player{players.NewInProcess("beatlast", dynamitebots.BeatLast()), players.NewInProcess("dynamite", dynamitebots.Dynamite())}
	res, err := match.Run(context.Background(), dynamite.Spec, cfg, ps, match.Options{MatchID: "r1", Recorder: rec})
	if err != nil {
		t.Fatal(err)
	}
	rec.Rec.Outcome = &res.Outcome
	return rec.Rec
}

func TestReplayReproducesTheMatch(t *testing.T) {
	t.Parallel()
	rec := record(t)
	path := filepath.Join(t.TempDir(), "m.json")
	if err := replay.Write(path, rec); err != nil {
		t.Fatal(err)
	}
	back, err := replay.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	out, err := replay.Run(back, func(replay.Step, game.Engine, []game.Answer) { steps++ })
	if err != nil {
		t.Fatal(err)
	}
	if out.Summary != rec.Outcome.Summary || steps != len(rec.Steps) {
		t.Fatalf("replayed %q in %d steps, recorded %q in %d", out.Summary, steps, rec.Outcome.Summary, len(rec.Steps))
	}
}

func TestReplayDetectsTampering(t *testing.T) {
	t.Parallel()
	rec := record(t)
	// Round 11: the dynamite bot still throws dynamite, so water and rock decide it differently.
	water := `{"step":"11","dynamite":{"move":"DYNAMITE_MOVE_WATER"}}`
	rockJSON := `{"step":"11","dynamite":{"move":"DYNAMITE_MOVE_ROCK"}}`
	a := &rec.Steps[10].Answers[0]
	if a.Seat != 0 {
		a = &rec.Steps[10].Answers[1]
	}
	if strings.Contains(string(a.Action), "WATER") {
		a.Action = []byte(rockJSON)
	} else {
		a.Action = []byte(water)
	}
	if _, err := replay.Run(rec, nil); !errors.Is(err, replay.ErrMismatch) {
		t.Fatalf("tampered record replayed with %v, want ErrMismatch", err)
	}
}

func TestReadRejectsForeignFiles(t *testing.T) {
	t.Parallel()
	_, err := replay.Decode(strings.NewReader(`{"hello": 1}`), "x.json")
	if !errors.Is(err, replay.ErrFormat) || !strings.Contains(err.Error(), "x.json") {
		t.Fatalf("foreign file: %v", err)
	}
	_, err = replay.Decode(strings.NewReader(`not json`), "y.json")
	if !errors.Is(err, replay.ErrFormat) {
		t.Fatalf("garbage file: %v", err)
	}
}
