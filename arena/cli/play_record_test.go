package cli_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/arena/replay"
)

// frequencyBot is a deterministic Python dynamite bot; with a turn it throws water at that
// round instead (a new version of the bot that answers differently there).
func frequencyBot(turn int) string {
	change := ""
	if turn > 0 {
		change = "        if len(state.rounds) == " + strconv.Itoa(turn-1) + ":\n            return dynamite.WATER\n"
	}
	return `from collections import Counter
from arena_sdk import dynamite

BEATS = {"R": "P", "P": "S", "S": "R", "D": "W", "W": "R"}


class Frequency(dynamite.Bot):
    name = "frequency"

    def __init__(self):
        self.seen = Counter()

    def move(self, state):
` + change + `        if state.rounds:
            self.seen[state.rounds[-1].opponent] += 1
        if state.own_dynamite_left and state.stake >= 2:
            return dynamite.DYNAMITE
        if not self.seen:
            return dynamite.ROCK
        return BEATS[self.seen.most_common(1)[0][0]]
`
}

// `arena play --against RECORD BOT` with real bot processes: the bot the match was recorded
// with re-runs it to the end; a new version that throws water at round 30 stops it at step 30
// with both answers; --then plays on; --from RECORD --step N forks it.
func TestPlayAgainstAndFromARecord(t *testing.T) {
	t.Parallel()
	if err := testenv.CheckPython("arena_sdk"); err != nil {
		t.Fatal(err)
	}
	py := testenv.Python()
	dir := t.TempDir()
	v1, v2 := filepath.Join(dir, "v1.py"), filepath.Join(dir, "v2.py")
	if err := os.WriteFile(v1, []byte(frequencyBot(0)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(v2, []byte(frequencyBot(30)), 0o644); err != nil {
		t.Fatal(err)
	}
	beatlast := filepath.Join(root, "bots/dynamite/cmd/beatlast")
	paper := filepath.Join(root, "bots/dynamite/cmd/paper")
	rp := filepath.Join(dir, "m.json")
	// A seed above 2^53, as arena play's random seeds are.
	code, out := run(t, "play", "--python", py, "dynamite", "--seed", "18446744073709365019", "--target", "60", "--replay", rp, v1, beatlast)
	if code != 0 {
		t.Fatalf("play (exit %d):\n%s", code, out)
	}
	rec, err := replay.Read(rp)
	if err != nil || rec.Config.Seed != 18446744073709365019 || len(rec.Steps) < 40 {
		t.Fatalf("record: %v, seed %d, %d steps", err, rec.Config.Seed, len(rec.Steps))
	}
	if b, _ := os.ReadFile(rp); !strings.Contains(string(b), `"seed":"18446744073709365019"`) {
		t.Fatalf("the replay's seed is not the exact string")
	}

	code, out = run(t, "play", "--python", py, "--against", rp, v1)
	if code != 0 || !strings.Contains(out, "no divergence: every answer of "+v1+" in all") || !strings.Contains(out, "(the recorded result)") ||
		!strings.Contains(out, "seed 18446744073709365019") {
		t.Fatalf("--against with the recorded bot (exit %d):\n%s", code, out)
	}
	t.Logf("$ arena play --against m.json v1.py\n%s", out)

	code, out = run(t, "play", "--python", py, "--against", rp, "--seat", "0", v2)
	if code != 1 || !strings.Contains(out, "diverged at step 30 of ") ||
		!strings.Contains(out, "live {\"dynamite\":{\"move\":\"DYNAMITE_MOVE_WATER\"}}") || !strings.Contains(out, "--from "+rp+" --step 30") ||
		!strings.Contains(out, "the re-run stopped at step 30") {
		t.Fatalf("--against with a new version (exit %d):\n%s", code, out)
	}
	t.Logf("$ arena play --against m.json --seat 0 v2.py\n%s", out)

	// Which seat: asked for when the bot's name is not a recorded player's.
	code, out = run(t, "play", "--python", py, "--against", rp, v2)
	if code != 2 || !strings.Contains(out, "Name it with --seat: 0 ("+v1+"), 1 ("+beatlast+")") {
		t.Fatalf("--against without a seat (exit %d):\n%s", code, out)
	}

	cont := filepath.Join(dir, "then.json")
	code, out = run(t, "play", "--python", py, "--against", rp, "--seat", "0", "--then", paper, "--replay", cont, v2)
	if code != 0 || !strings.Contains(out, "diverged at step 30; the match went on live") {
		t.Fatalf("--then (exit %d):\n%s", code, out)
	}
	then, err := replay.Read(cont)
	if err != nil {
		t.Fatal(err)
	}
	for k, st := range then.Steps {
		var seat1 string
		for _, a := range st.Answers {
			if a.Seat == 1 {
				seat1 = string(a.Action)
			}
		}
		if k >= 30 && !strings.Contains(seat1, "PAPER") {
			t.Fatalf("--then: step %d has no paper from the continuing bot: %+v", k+1, st.Answers)
		}
	}

	fork := filepath.Join(dir, "fork.json")
	code, out = run(t, "play", "--python", py, "--from", rp, "--step", "25", "--replay", fork, v2, paper)
	if code != 0 || !strings.Contains(out, "forked at step 25 of") || !strings.Contains(out, "steps 1 to 24 are the recorded answers") {
		t.Fatalf("--from (exit %d):\n%s", code, out)
	}
	t.Logf("$ arena play --from m.json --step 25 v2.py paper\n%s", out)
	f, err := replay.Read(fork)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 24; k++ {
		if a, b := string(f.Steps[k].Answers[0].Action)+string(f.Steps[k].Answers[1].Action),
			string(rec.Steps[k].Answers[0].Action)+string(rec.Steps[k].Answers[1].Action); a != b {
			t.Fatalf("fork step %d: %s, recorded %s", k+1, a, b)
		}
	}
	if f.Config.Players[1].Name != paper || f.Config.Seed != rec.Config.Seed {
		t.Fatalf("fork's players %+v, seed %d", f.Config.Players, f.Config.Seed)
	}
	if code, out = run(t, "replay", "-q", fork); code != 0 {
		t.Fatalf("the fork's replay does not replay (exit %d):\n%s", code, out)
	}

	for _, bad := range [][]string{
		{"play", "--python", py, "--from", rp, "--step", "0", v1, paper},
		{"play", "--python", py, "--from", rp, "--step", "5", v1},
		{"play", "--python", py, "--against", rp, "--seed", "3", v1},
		{"play", "--python", py, "--against", rp, "--from", rp, v1},
	} {
		if code, out := run(t, bad...); code != 2 {
			t.Errorf("%v: exit %d, want 2:\n%s", bad, code, out)
		}
	}
}
