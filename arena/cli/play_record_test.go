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

// frequencyBot is a deterministic Python dynamite bot; with a turn it answers differently at
// that round (a new version of the bot): water, or rock where the old version would throw water
// itself. Its counts go on as the old version's, so only that one answer differs.
func frequencyBot(turn int) string {
	change := ""
	if turn > 0 {
		change = "        if len(state.rounds) == " + strconv.Itoa(turn-1) + ":\n" +
			"            return dynamite.ROCK if answer == dynamite.WATER else dynamite.WATER\n"
	}
	return `from collections import Counter
from arena_sdk import dynamite

BEATS = {"R": "P", "P": "S", "S": "R", "D": "W", "W": "R"}


class Frequency(dynamite.Bot):
    name = "frequency"

    def __init__(self):
        self.seen = Counter()

    def move(self, state):
        answer = self.answer(state)
` + change + `        return answer

    def answer(self, state):
        if state.rounds:
            self.seen[state.rounds[-1].opponent] += 1
        if state.own_dynamite_left and state.stake >= 2:
            return dynamite.DYNAMITE
        if not self.seen:
            return dynamite.ROCK
        return BEATS[self.seen.most_common(1)[0][0]]
`
}

// dynamiter throws dynamite while it has any: the frequency bot answers it with water, so a
// new version that only "throws water at round 30" would answer there as the old one did.
const dynamiter = `from arena_sdk import dynamite


class Dynamiter(dynamite.Bot):
    def move(self, state):
        return dynamite.DYNAMITE if state.own_dynamite_left else dynamite.PAPER
`

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

	out = divergesAtStep30(t, py, rec, rp, v2)
	t.Logf("$ arena play --against m.json --seat 0 v2.py\n%s", out)

	// A record where the old version itself throws water at round 30 (beatlast above is seeded
	// at random, so its record is one of many): the new version still stops at step 30.
	opp := filepath.Join(dir, "dynamiter.py")
	if err := os.WriteFile(opp, []byte(dynamiter), 0o644); err != nil {
		t.Fatal(err)
	}
	wp := filepath.Join(dir, "water.json")
	if code, out := run(t, "play", "--python", py, "dynamite", "--seed", "5", "--target", "40", "--replay", wp, v1, opp); code != 0 {
		t.Fatalf("play against the dynamiter (exit %d):\n%s", code, out)
	}
	wrec, err := replay.Read(wp)
	if err != nil {
		t.Fatal(err)
	}
	if a := string(wrec.Steps[29].Answers[0].Action); !strings.Contains(a, "WATER") {
		t.Fatalf("against the dynamiter the old version answers %s at step 30, not water: this case tests nothing", a)
	}
	divergesAtStep30(t, py, wrec, wp, v2)

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

// divergesAtStep30 re-runs the record at path with the new version live in seat 0 and checks
// that it stops at step 30 with both answers: live water, or rock where the record has water.
func divergesAtStep30(t *testing.T, py string, rec *replay.Record, path, v2 string) string {
	t.Helper()
	recorded, live := "", "DYNAMITE_MOVE_WATER"
	for _, a := range rec.Steps[29].Answers {
		if a.Seat == 0 {
			recorded = string(a.Action)
		}
	}
	if strings.Contains(recorded, "WATER") {
		live = "DYNAMITE_MOVE_ROCK"
	}
	code, out := run(t, "play", "--python", py, "--against", path, "--seat", "0", v2)
	if code != 1 || !strings.Contains(out, "diverged at step 30 of ") ||
		!strings.Contains(out, "live {\"dynamite\":{\"move\":\""+live+"\"}}") || !strings.Contains(out, "--from "+path+" --step 30") ||
		!strings.Contains(out, "the re-run stopped at step 30") {
		t.Fatalf("--against %s with a new version (exit %d; step 30 recorded %s):\n%s", path, code, recorded, out)
	}
	return out
}
