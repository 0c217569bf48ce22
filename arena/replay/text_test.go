package replay_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/replay"
)

func TestTextPrintsEveryTurnAndTheOutcome(t *testing.T) {
	t.Parallel()
	rec := record(t)
	rec.Config.Params = map[string]string{"target": "1000", "dynamite": "100"}
	var b bytes.Buffer
	o, err := replay.Text(&b, rec)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if lines[0] != "dynamite r1: beatlast vs dynamite (seed 9)" || lines[1] != "params: dynamite=100 target=1000" {
		t.Fatalf("header:\n%s\n%s", lines[0], lines[1])
	}
	first := fmt.Sprintf("%5d  beatlast=", 1)
	if !strings.HasPrefix(lines[2], first) || !strings.Contains(lines[2], `  dynamite={"dynamite":{"move":"DYNAMITE_MOVE_DYNAMITE"}}`) {
		t.Fatalf("first turn: %q", lines[2])
	}
	if strings.Contains(b.String(), `"step"`) {
		t.Fatal("an action's step is printed; the turn number already says it")
	}
	for _, want := range []string{"\nresult: " + o.Summary + "\n", "\n  beatlast: ", "\n  dynamite: ", "\ntable:\n"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("no %q in:\n%s", want, b.String())
		}
	}
	if n := len(lines) - 2; n < len(rec.Steps) {
		t.Fatalf("%d lines for %d steps", n, len(rec.Steps))
	}
}

func TestTurnsNamesFaults(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	visit := replay.Turns(&b)
	visit(replay.Step{N: 3}, fakeSeats{}, []game.Answer{{Seat: 0, Fault: &game.Fault{Kind: game.FaultTimeout}}, {Seat: 7, Fault: &game.Fault{Kind: game.FaultCrash}}})
	if got, want := b.String(), "    3  a=FAULT timeout  seat7=FAULT crash\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// fakeSeats is an engine that only knows its seats.
type fakeSeats struct{ game.Engine }

func (fakeSeats) Seats() []game.Seat { return []game.Seat{{Name: "a"}, {Name: "b"}} }
