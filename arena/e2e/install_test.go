package e2e_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/internal/testenv"
)

// copyTree copies the regular files of src into dst (a bot copied out of the checkout).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestInstalledArenaPlaysFromAnywhere installs the arena the way a user does (go install, a
// default build: cgo on where the machine has a C compiler, so a dynamically linked binary)
// into an empty GOBIN and plays, from a folder outside the checkout, a Go bot, a Python file, a
// stdio kit bot and a house bot copied or named there: the binary carries everything of its
// own. The folder also poses as the arena's checkout (its go.mod line and a bridge of its own
// that would print a marker), which nothing takes for the arena's source.
func TestInstalledArenaPlaysFromAnywhere(t *testing.T) {
	t.Parallel()
	mod, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	gobin := t.TempDir()
	install := exec.Command("go", "install", "./arena/cmd/arena")
	install.Dir = mod
	install.Env = append(os.Environ(), "GOBIN="+gobin)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	arena := filepath.Join(gobin, "arena")

	work := t.TempDir()
	copyTree(t, filepath.Join(mod, "examples/go/dynamite"), filepath.Join(work, "gobot"))
	copyTree(t, filepath.Join(mod, "examples/javascript/dynamite"), filepath.Join(work, "jsbot"))
	py, err := os.ReadFile(filepath.Join(mod, "examples/python/dynamite/bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	const marker = "INSTALL-POSER-BRIDGE-RAN"
	for rel, text := range map[string]string{
		"bot.py":                                string(py),
		"go.mod":                                "module github.com/botarena/arena\n\ngo 1.26\n",
		"arena/bridge/cmd/arena-bridge/main.go": "package main\n\nimport \"os\"\n\nfunc main() { os.Stderr.WriteString(\"" + marker + "\\n\"); os.Exit(7) }\n",
	} {
		p := filepath.Join(work, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(arena, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("arena %s (in %s): %v\n%s", strings.Join(args, " "), work, err, out)
		}
		if strings.Contains(string(out), marker) {
			t.Fatalf("a bridge from the working folder ran:\n%s", out)
		}
		return string(out)
	}
	if out := run("version"); !strings.Contains(out, "javascript") || !strings.Contains(out, "house:dynamite/beatlast") {
		t.Fatalf("arena version does not list the kits and house bots:\n%s", out)
	}
	for _, bots := range [][]string{{"gobot", "bot.py"}, {"jsbot", "house:dynamite/paper"}} {
		out := run(append([]string{"play", "dynamite", "--seed", "7", "--rounds", "200"}, bots...)...)
		if !strings.Contains(out, "no faults") {
			t.Errorf("arena play dynamite %s: a fault, where every bot should play:\n%s", strings.Join(bots, " "), out)
		}
	}
}
