package cli_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/cli"
	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/sandbox"
)

const root = "../.."

func run(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out bytes.Buffer
	code := cli.Main(args, &out, &out)
	return code, out.String()
}

func TestBadInputGetsClearErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	plain := filepath.Join(dir, "bot.bin")
	os.WriteFile(plain, []byte("not a program"), 0o644)
	garbage := filepath.Join(dir, "replay.json")
	os.WriteFile(garbage, []byte("{broken"), 0o644)
	paper := filepath.Join(root, "bots/dynamite/cmd/paper")
	cases := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"unknown game", []string{"play", "chess", paper, paper}, 2, []string{`unknown game "chess"`, "dynamite", "realtv"}},
		{"missing bot", []string{"play", "dynamite", filepath.Join(dir, "nope.py"), paper}, 1, []string{"no such bot file", "nope.py"}},
		{"not executable", []string{"play", "dynamite", plain, paper}, 1, []string{"not executable", "chmod +x"}},
		{"bad parameter", []string{"play", "dynamite", "--target", "lots", paper, paper}, 2, []string{"target", "not a whole number"}},
		{"parameter of another game", []string{"play", "dynamite", "--phases", "3", paper, paper}, 2, []string{`no parameter "phases"`}},
		{"player count", []string{"play", "dynamite", paper}, 2, []string{"needs 2 players, got 1"}},
		{"not a main package", []string{"play", "dynamite", filepath.Join(root, "arena/match"), paper}, 1, []string{"not package main"}},
		{"tournament bot typo", []string{"tournament", "dynamite", "--store", filepath.Join(dir, "t.db"), filepath.Join(dir, "nope"), paper}, 1,
			[]string{"no such bot file", "nope"}},
		{"store directory missing", []string{"tournament", "dynamite", "--store", filepath.Join(dir, "no", "t.db"), paper, paper}, 2,
			[]string{"does not exist"}},
		{"corrupt replay", []string{"replay", garbage}, 1, []string{"not a readable replay file", "replay.json"}},
		{"missing replay", []string{"replay", filepath.Join(dir, "none.json")}, 1, []string{"cannot open replay"}},
		{"unknown clock mode", []string{"play", "dynamite", "--clock-mode", "cputime", paper, paper}, 2,
			[]string{"--clock-mode", `unknown clock mode "cputime"`, "use cpu"}},
		{"bench --with alone", []string{"bench", "--with", garbage}, 2, []string{"--with needs --compare"}},
		{"bench --only a step it has not", []string{"bench", "--only", "moves,nosuch"}, 2, []string{`no step "nosuch"`, "moves, start-up"}},
		{"bench --compare a broken report", []string{"bench", "--compare", garbage, "--with", garbage}, 1,
			[]string{"not an arena bench report", "arena bench --json"}},
	}
	t.Cleanup(func() {
		if _, err := os.Stat(filepath.Join(dir, "t.db")); err == nil {
			t.Error("a tournament with a bad bot left a store file behind")
		}
	})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, out := run(t, c.args...)
			if code != c.code {
				t.Errorf("exit %d, want %d; output:\n%s", code, c.code, out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("output does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestGamesListsEveryGame(t *testing.T) {
	t.Parallel()
	code, out := run(t, "games")
	// Every registered game (the cli package registers them all), and two games' parameters.
	if len(game.Names()) < 2 {
		t.Fatalf("registered games %v: the cli should register every game", game.Names())
	}
	for _, g := range append(game.Names(), "--phases", "--artists") {
		if code != 0 || !strings.Contains(out, g) {
			t.Fatalf("arena games (exit %d) does not list %q:\n%s", code, g, out)
		}
	}
}

func TestPlayThenReplay(t *testing.T) {
	t.Parallel()
	rp := filepath.Join(t.TempDir(), "m.json")
	code, out := run(t, "play", "dynamite", "--seed", "3", "--target", "30", "--replay", rp,
		filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors"))
	if code != 0 || !strings.Contains(out, "scissors wins 30-0") || !strings.Contains(out, "no faults") || !strings.Contains(out, "dynamite used") {
		t.Fatalf("play (exit %d):\n%s", code, out)
	}
	// The clock is the CPU clock wherever cgroups count CPU time, and the replay says so.
	clock := "wall"
	if sandbox.Probe().Active(sandbox.LayerCPU) {
		clock = "cpu"
	}
	if b, err := os.ReadFile(rp); !strings.Contains(out, "(seed 3, "+clock+" clock)") || err != nil || !strings.Contains(string(b), `"clock":"`+clock+`"`) {
		t.Fatalf("want the %s clock in the output and the replay (%v):\n%s", clock, err, out)
	}
	code, out = run(t, "replay", rp)
	if code != 0 || !strings.Contains(out, "the recorded result is confirmed") || !strings.Contains(out, "DYNAMITE_MOVE_SCISSORS") {
		t.Fatalf("replay (exit %d):\n%s", code, out)
	}
}
