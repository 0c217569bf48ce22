package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Rust bot copied out of the checkout names the kit by a path of its author's machine (here
// one that exists nowhere, in the table form of Cargo.toml): the arena's build points it at its
// own copy of the kit, and the bot plays.
func TestRustBotWithItsOwnKitPathPlays(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("cargo"); err != nil {
		t.Fatalf("no cargo on PATH (Rust bots build with it): %v", err)
	}
	bot := copyDir(t, filepath.Join(root, "examples/rust/dynamite"))
	toml := filepath.Join(bot, "Cargo.toml")
	b, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `arena = { path = "../../../sdk/rust" }`, "", 1)
	s = strings.Replace(s, "[profile.release]", "[dependencies.arena]\npath = \"/nowhere/arena/sdk/rust\"\n\n[profile.release]", 1)
	if s == string(b) || !strings.Contains(s, "/nowhere/") || strings.Contains(s, "../../../sdk/rust") {
		t.Fatalf("the example's Cargo.toml changed; rewrite this test:\n%s", b)
	}
	writeFile(t, toml, s)
	code, out := run(t, "play", "dynamite", "--start-timeout", "1m", "--target", "5", bot, "house:dynamite/paper")
	if code != 0 || !strings.Contains(out, "wins 5-") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}
