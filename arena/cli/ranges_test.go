package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNumericFlagsRefuseOutOfRange: every value of issue 11 that was silently accepted is now a
// usage error naming the flag, the value and the allowed range, before any bot starts or any
// store is created.
func TestNumericFlagsRefuseOutOfRange(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	b := func(n string) string { return filepath.Join(root, "bots/dynamite/cmd", n) }
	two := []string{b("paper"), b("dynamite")}
	four := []string{b("paper"), b("dynamite"), b("scissors"), b("beatlast")}
	tour := func(extra ...string) []string {
		return append(append([]string{"tournament", "dynamite", "--store", db}, extra...), four...)
	}
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"negative deadline", append([]string{"play", "dynamite", "--deadline", "-1s"}, two...), []string{"--deadline", `"-1s"`, "1ms to 1h0m0s"}},
		{"zero deadline", tour("--deadline", "0s"), []string{"--deadline", "0s is out of range"}},
		{"negative memory", append([]string{"play", "dynamite", "--memory", "-1"}, two...), []string{"--memory", `"-1"`, "16 to 1048576"}},
		{"zero output", append([]string{"play", "dynamite", "--output", "0"}, two...), []string{"--output", "1 to 1048576"}},
		{"negative cpus", append([]string{"play", "dynamite", "--cpus", "-2"}, two...), []string{"--cpus", "0.01 to 1024"}},
		{"procs", tour("--procs", "0"), []string{"--procs", "1 to 65536"}},
		{"cpu seconds", tour("--cpu-seconds", "-5"), []string{"--cpu-seconds", `"-5"`}},
		{"disk", tour("--disk", "99999999"), []string{"--disk", "1 to 1048576"}},
		{"start timeout", tour("--start-timeout", "1ns"), []string{"--start-timeout", "100ms to 1h0m0s"}},
		{"jobs", tour("--jobs", "100000"), []string{"--jobs", `"100000"`, "allowed 0 to"}},
		// 0 is for a coordinator whose matches arena worker plays.
		{"zero jobs", tour("--jobs", "0"), []string{"--jobs 0 plays nothing here", "--nats"}},
		{"zero worker jobs", []string{"worker", "--nats", "nats://127.0.0.1:1", "--jobs", "0"}, []string{"--jobs", "allowed 1 to"}},
		{"ack wait", tour("--queue", "--ack-wait", "1ms"), []string{"--ack-wait", "allowed 100ms to 1h0m0s"}},
		{"reps", tour("--reps", "0"), []string{"--reps", "allowed 1 to 1000000"}},
		{"table", tour("--table", "-1"), []string{"--table", "0 to 100000"}},
		{"seed", tour("--seed", "-1"), []string{"--seed", "not a whole number"}},
		// The schedule's size from the counts: 4 bots make 12 matches a repetition.
		{"schedule size", tour("--reps", "1000000"), []string{"schedule too large", "--reps 1000000 makes 12000000", "at most 83333"}},
		{"game parameter", tour("--target", "-3"), []string{"target=-3", "out of range 1..1073741824"}},
		{"alias and flag disagree", append([]string{"play", "finger", "--max-rounds", "5", "--max_rounds", "6"}, two...), []string{"--max-rounds 5 and --max_rounds 6 disagree"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out := run(t, c.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (usage); output:\n%s", code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not say %s:\n%s", w, out)
				}
			}
			if strings.Contains(out, "vs") || strings.Contains(out, "tournament dynamite-") {
				t.Errorf("something started:\n%s", out)
			}
		})
	}
	t.Cleanup(func() {
		if _, err := os.Stat(db); err == nil {
			t.Error("a refused tournament left a store file behind")
		}
	})
}

// TestGameParamsKebabCase: game parameters are kebab case like every other flag; the old
// snake_case spelling still works, with a deprecation note. Real bot processes play.
func TestGameParamsKebabCase(t *testing.T) {
	t.Parallel()
	code, out := run(t, "games")
	if code != 0 || !strings.Contains(out, "--start-money") || !strings.Contains(out, "--max-rounds") || strings.Contains(out, "--start_money") {
		t.Fatalf("arena games (exit %d):\n%s", code, out)
	}
	code, out = run(t, "play", "bidding", "--help")
	if code != 0 || !strings.Contains(out, "--start-money") || strings.Contains(out, "--start_money") {
		t.Fatalf("play --help (exit %d):\n%s", code, out)
	}
	bid := func(n string) string { return filepath.Join(root, "bots/bidding/cmd", n) }
	for _, flag := range []string{"--start-money", "--start_money"} {
		code, out := run(t, "play", "bidding", "--seed", "2", "--games", "2", flag, "3", bid("strong"), bid("strong"))
		if code != 0 {
			t.Fatalf("%s (exit %d):\n%s", flag, code, out)
		}
		deprecated := strings.Contains(out, "--start_money is deprecated, write --start-money")
		if deprecated != (flag == "--start_money") {
			t.Errorf("%s: deprecation note %v:\n%s", flag, deprecated, out)
		}
	}
	// The parameter reached the engine under its own name: with $0 every bid is 0 and an
	// invalid bid (> money) abandons the game, so compare against a known-bad value.
	code, out = run(t, "play", "bidding", "--games", "1", "--start-money", "-1", bid("strong"), bid("strong"))
	if code != 2 || !strings.Contains(out, "start_money=-1 is out of range") {
		t.Fatalf("--start-money -1 (exit %d):\n%s", code, out)
	}
}

// TestJobsBeyondMatches: far more jobs than matches starts only as many workers as matches.
func TestJobsBeyondMatches(t *testing.T) {
	t.Parallel()
	db := filepath.Join(t.TempDir(), "t.db")
	b := func(n string) string { return filepath.Join(root, "bots/dynamite/cmd", n) }
	code, out := run(t, "tournament", "dynamite", "--store", db, "--plain", "--jobs", "64", "--target", "10", b("paper"), b("scissors"))
	if code != 0 || !strings.Contains(out, "played 2 matches") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}
