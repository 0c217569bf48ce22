package fingerbots

import (
	"context"
	"strconv"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/finger"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/sdk"
)

// play runs a finger match between two Go bots in-process, through the real match runner.
func play(t *testing.T, games int, bots [2]sdk.Bot) game.Outcome {
	t.Helper()
	cfg := game.Config{Seed: 1, Players: []game.Player{{Name: bots[0].Name + "-0"}, {Name: bots[1].Name + "-1"}},
		Params: map[string]string{"games": strconv.Itoa(games)}}
	res, err := players.Play(context.Background(), finger.Spec, cfg, bots[:]...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome
}

func TestRandomPlaysOnlyLegalMoves(t *testing.T) {
	t.Parallel()
	out := play(t, 200, [2]sdk.Bot{Random(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("random made faults: %+v", out.Faults[0])
	}
	t.Log(out.Summary)
}

func TestStrongBeatsRandomClearly(t *testing.T) {
	t.Parallel()
	out := play(t, 400, [2]sdk.Bot{Strong(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	won, lost := out.Players[0].Score, out.Players[1].Score
	t.Logf("%s; table %v", out.Summary, out.Table)
	// Strong must win at least 90% of the games, starting or not.
	if out.Players[0].Result != game.ResultWin || won < 0.9*400 {
		t.Fatalf("strong won %v, random %v of 400", won, lost)
	}
}

func TestStrongNeverLosesToItselfByFault(t *testing.T) {
	t.Parallel()
	out := play(t, 4, [2]sdk.Bot{Strong(), Strong()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	t.Logf("%s", out.Summary)
}

func TestSolvedOpeningPosition(t *testing.T) {
	t.Parallel()
	tb := table()
	start := position{1, 1, 1, 1}.index()
	counts := map[value]int{}
	for _, p := range all() {
		counts[tb.value[p.index()]]++
	}
	t.Logf("opening: value %d depth %d; positions won %d lost %d drawn %d", tb.value[start], tb.depth[start], counts[won], counts[lost], counts[drawn])
	// Sanity: 4 1 against 4 0 to move wins at once (4 hits 4 -> lost, no hand left).
	if i := (position{4, 1, 4, 0}).index(); tb.value[i] != won || tb.depth[i] != 1 {
		t.Fatalf("4 1 vs 4 0: value %d depth %d", tb.value[i], tb.depth[i])
	}
	// A player with no hands has lost.
	if tb.value[(position{0, 0, 1, 1}).index()] != lost {
		t.Fatal("no hands is not lost")
	}
}
