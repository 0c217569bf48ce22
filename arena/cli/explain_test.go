package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/sandbox"
)

// copyDir copies a kit example into a temporary folder the test can break.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	if out, err := exec.Command("cp", "-r", src, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	return dst
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every program that dies before it is ready to play is reported with its own error line and
// how it ended, never with the connection error its death caused: real bots of each kind.
func TestDeathBeforeReadyExplainsItself(t *testing.T) {
	t.Parallel()
	paper := "house:dynamite/paper"
	// A JavaScript syntax error (the kit behind the stdio bridge).
	js := copyDir(t, filepath.Join(root, "examples/javascript/dynamite"))
	b, err := os.ReadFile(filepath.Join(js, "bot.js"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(js, "bot.js"), "const x = = 1;\n"+string(b))
	// A Python bot importing a module that is not there (native gRPC SDK).
	py := filepath.Join(t.TempDir(), "bot.py")
	writeFile(t, py, "import numpy_not_installed\n")
	// A Go bot that panics at init.
	gobot := copyDir(t, filepath.Join(root, "examples/go/dynamite"))
	writeFile(t, filepath.Join(gobot, "init.go"), "package main\n\nfunc init() { panic(\"no strategy file\") }\n")
	// A stdio program that says why and exits.
	stdio := filepath.Join(t.TempDir(), "stdio")
	writeFile(t, filepath.Join(stdio, "bot.py"), "import sys\nsys.stderr.write('cannot read weights.bin\\n')\nsys.exit(3)\n")
	writeFile(t, filepath.Join(stdio, "bot.json"), `{"protocol": "stdio", "run": "bot.py"}`)
	cases := []struct {
		name, bot string
		want      []string
	}{
		{"javascript syntax error", js, []string{"SyntaxError: Unexpected token '='", "const x = = 1;", "exited before it was ready to play (exited with status 1)",
			"    " + filepath.Join(js, "bot.js") + ":1\n"}},
		{"python missing module", py, []string{"ModuleNotFoundError: No module named 'numpy_not_installed'", "exited", `File "` + py + `", line 1`}},
		{"go panic at init", gobot, []string{"panic: no strategy file", "exited", "status 2"}},
		{"stdio program exits", stdio, []string{"cannot read weights.bin", "exited before it was ready to play (exited with status 3)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			code, out := run(t, "play", "dynamite", "--start-timeout", "1m", "--seed", "1", c.bot, paper)
			t.Logf("%s: the message after %v", c.name, time.Since(start).Round(time.Millisecond))
			if code == 0 {
				t.Fatalf("a bot that cannot start played:\n%s", out)
			}
			for _, w := range c.want {
				if !strings.Contains(out, w) {
					t.Errorf("the report does not say %q:\n%s", w, out)
				}
			}
			for _, noise := range []string{"rpc error", "code = Unavailable", "transport:", "node:internal", " /bot/"} {
				if strings.Contains(out, noise) {
					t.Errorf("the report shows %q, not the bot's own error:\n%s", noise, out)
				}
			}
		})
	}
}

// bot.json's "run" is the newer name of "command": "run": "x.py" plays a Python bot, and a
// folder whose bot.py is only the abstract base of the bot in its other file says so instead of
// instantiating the base.
func TestBotJSONRunAndAbstractHelper(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	run1 := filepath.Join(dir, "runpy")
	writeFile(t, filepath.Join(run1, "x.py"), "from arena_sdk.dynamite import Bot\n\nclass Rocky(Bot):\n    def move(self, state):\n        return 'R'\n")
	writeFile(t, filepath.Join(run1, "bot.json"), `{"run": "x.py"}`)
	code, out := run(t, "play", "dynamite", "--start-timeout", "1m", "--seed", "1", "--target", "20", run1, "house:dynamite/scissors")
	if code != 0 || !strings.Contains(out, "wins 20-0") {
		t.Fatalf(`"run": "x.py" (exit %d):`+"\n%s", code, out)
	}

	helper := filepath.Join(dir, "helper")
	writeFile(t, filepath.Join(helper, "bot.py"), "from abc import ABC, abstractmethod\n\nclass BaseBot(ABC):\n    @abstractmethod\n    def make_move(self, gamestate):\n        ...\n")
	writeFile(t, filepath.Join(helper, "mybot.py"), "from bot import BaseBot\n\nclass Rocky(BaseBot):\n    def make_move(self, gamestate):\n        return 'R'\n")
	code, out = run(t, "play", "dynamite", "--start-timeout", "1m", "--seed", "1", "--target", "20", helper, "house:dynamite/scissors")
	if code == 0 || !strings.Contains(out, "BaseBot is abstract") || !strings.Contains(out, `"run": "mybot.py:MyBot"`) || strings.Contains(out, "Can't instantiate") {
		t.Fatalf("a folder whose bot.py is an abstract helper (exit %d):\n%s", code, out)
	}
	writeFile(t, filepath.Join(helper, "bot.json"), `{"run": "mybot.py:Rocky"}`)
	code, out = run(t, "play", "dynamite", "--start-timeout", "1m", "--seed", "1", "--target", "20", helper, "house:dynamite/scissors")
	if code != 0 || !strings.Contains(out, "wins 20-0") {
		t.Fatalf(`the helper folder with "run": "mybot.py:Rocky" (exit %d):`+"\n%s", code, out)
	}
}

// A tournament given a folder of submissions that is not there says so; a loose .js file in
// a folder of submissions plays.
func TestTournamentFolderMistakes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out := run(t, "tournament", "dynamite", "--store", filepath.Join(dir, "t.db"), filepath.Join(dir, "submissions"))
	if code == 0 || !strings.Contains(out, "submissions") || !strings.Contains(out, "folder of submissions") || strings.Contains(out, "at least 2 bots") {
		t.Fatalf("a missing submissions folder (exit %d):\n%s", code, out)
	}
	subs := filepath.Join(dir, "subs")
	js := copyDir(t, filepath.Join(root, "examples/javascript/dynamite"))
	b, err := os.ReadFile(filepath.Join(js, "bot.js"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(subs, "loose.js"), string(b))
	writeFile(t, filepath.Join(subs, "rocky.py"), "def make_move(rounds):\n    return 'R'\n")
	code, out = run(t, "tournament", "dynamite", "--store", filepath.Join(dir, "t2.db"), "--start-timeout", "1m", "--target", "10", subs)
	if code != 0 || !strings.Contains(out, "loose") || strings.Contains(out, "skipped") {
		t.Fatalf("a folder with a loose .js file (exit %d):\n%s", code, out)
	}
}

// A stdio script whose #! interpreter the bot's filesystem view does not hold says so, not
// only "no such file" of a file that is there. Without the view (not root), the script runs.
func TestScriptWithoutItsInterpreterExplainsItself(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "sh")
	writeFile(t, filepath.Join(dir, "bot.json"), `{"protocol": "stdio", "run": "bot.sh"}`)
	writeFile(t, filepath.Join(dir, "bot.sh"), "#!/bin/sh\necho 'no weights' >&2\nexit 3\n")
	if err := os.Chmod(filepath.Join(dir, "bot.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out := run(t, "play", "dynamite", dir, "house:dynamite/paper")
	want := `its interpreter "/bin/sh" is not in the bot's sandbox`
	if !sandbox.Probe().Active(sandbox.LayerFiles) {
		want = "no weights"
	}
	if code == 0 || !strings.Contains(out, want) || !strings.Contains(out, filepath.Join(dir, "bot.sh")) {
		t.Fatalf("want %q naming the script (exit %d):\n%s", want, code, out)
	}
}

// A bot that faults mid-match is reported with its own files as its author gave them, in its
// traceback and in its last stderr lines, not the sandbox's /bot.
func TestFaultsNameTheBotsOwnFiles(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "raiser")
	writeFile(t, filepath.Join(dir, "bot.py"), `import sys
from arena_sdk.dynamite import Bot

class Raiser(Bot):
    def move(self, state):
        if len(state.rounds) == 2:
            raise ValueError("bad weights")
        return "R"
`)
	code, out := run(t, "play", "dynamite", "--start-timeout", "1m", dir, "house:dynamite/paper")
	want := `File "` + filepath.Join(dir, "bot.py") + `", line 7, in move`
	if code != 0 || !strings.Contains(out, "ValueError: bad weights") || !strings.Contains(out, want) || strings.Contains(out, `"/bot/`) {
		t.Fatalf("want %q (exit %d):\n%s", want, code, out)
	}
}
