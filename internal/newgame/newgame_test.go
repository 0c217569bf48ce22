package newgame_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/replay"
	"github.com/botarena/arena/internal/newgame"
)

// root is the repository's root, from this package's folder.
var root = filepath.Join("..", "..")

// maxFiles is issue 27's target: a game every kit plays in at most this many hand-written files.
const maxFiles = 8

// TestDocIsTheTemplate: the steps block of docs/adding-a-game.md names exactly the template's
// new files and edited files, and no more than maxFiles of them. The document is checked
// against the template (not the other way round) because the template is what runs: a step the
// document adds, drops or renames fails here, and a step the template needs fails
// TestThrowawayGame.
func TestDocIsTheTemplate(t *testing.T) {
	steps, err := newgame.Steps(filepath.Join(root, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	var added, edited []string
	for _, s := range steps {
		switch s.Kind {
		case "new":
			added = append(added, s.ForTemplate())
		case "edit":
			edited = append(edited, s.ForTemplate())
		}
	}
	slices.Sort(added)
	slices.Sort(edited)
	files, err := newgame.NewFiles()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(added, files) {
		t.Errorf("docs/adding-a-game.md's new files %v, the template's %v (internal/newgame/testdata/coin): make them the same", added, files)
	}
	if want := newgame.EditedFiles(); !slices.Equal(edited, want) {
		t.Errorf("docs/adding-a-game.md's edited files %v, the template's Edits touch %v: make them the same", edited, want)
	}
	if n := len(added) + len(edited); n > maxFiles {
		t.Errorf("a new game takes %d hand-written files (%d new, %d edited), over the target of %d", n, len(added), len(edited), maxFiles)
	}
}

// TestEditsApply: every Edit finds its anchor in today's file as often as it expects, and the
// template is not in the repository (the throwaway game stays out of the registry).
func TestEditsApply(t *testing.T) {
	dir := t.TempDir()
	for _, f := range newgame.EditedFiles() {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := newgame.Apply(dir); err != nil {
		t.Fatal(err)
	}
	for _, e := range newgame.Edits {
		b, _ := os.ReadFile(filepath.Join(dir, e.File))
		if got := strings.Count(string(b), e.Insert+"\n"); got != e.Count {
			t.Errorf("%s holds %q %d times after Apply, want %d", e.File, e.Insert, got, e.Count)
		}
	}
	if err := newgame.Apply(dir); err == nil {
		t.Error("applying the template twice gave no error")
	}
	if slices.Contains(game.Names(), newgame.Game) {
		t.Errorf("the template game %q is registered in the repository itself: it belongs to the scratch copy only", newgame.Game)
	}
	files, _ := newgame.NewFiles()
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil {
			t.Errorf("%s is in the repository: the template game belongs to the scratch copy only", f)
		}
	}
}

// TestThrowawayGame adds the template game to a scratch copy of the repository exactly as
// docs/adding-a-game.md's steps say (its files, then its commands: generation, the golden file,
// the contract suite), then plays it with every kit's generic path against its house bot, each
// a real bot process built by the arena in its sandbox. NEWGAME_OMIT=<file>[,<file>] leaves
// steps out, to see that each one is needed.
func TestThrowawayGame(t *testing.T) {
	python := os.Getenv("ARENA_PYTHON")
	if python == "" {
		t.Fatal("ARENA_PYTHON is not set: make a venv with the SDK and grpcio-tools (scripts/test.sh does) and set it")
	}
	for _, tool := range []string{"node", "npm", "cargo", "javac", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is not installed, and a kit needs it: %v", tool, err)
		}
	}
	scratch := t.TempDir()
	copyRepo(t, scratch)
	steps, err := newgame.Steps(filepath.Join(scratch, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	var omit []string
	if o := os.Getenv("NEWGAME_OMIT"); o != "" {
		omit = strings.Split(o, ",")
		t.Logf("leaving out %v", omit)
	}
	if err := newgame.Apply(scratch, omit...); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "ARENA_PYTHON="+python)
	for _, s := range steps {
		if s.Kind != "run" {
			continue
		}
		cmd := s.ForTemplate()
		if slices.Contains(omit, cmd) {
			continue
		}
		run(t, scratch, env, "sh", "-c", cmd)
	}

	arena := filepath.Join(scratch, "bin", "arena")
	run(t, scratch, env, "go", "build", "-o", arena, "./arena/cmd/arena")
	py := pythonWithScratchSDK(t, python, scratch)
	heads := []string{"HEADS"}
	alternate := []string{"HEADS", "TAILS"} // round 1 heads, round 2 tails, ...
	for _, k := range []struct {
		kit, bot string
		calls    []string
	}{
		{"go", "arena/e2e/testdata/anygame/go", heads},
		{"python", "arena/e2e/testdata/anygame/python/bot.py", heads},
		{"javascript", "arena/e2e/testdata/anygame/javascript", heads},
		{"typescript", typeScriptBot(t, scratch), heads},
		{"rust", "internal/newgame/testdata/bots/rust", alternate},
		{"java", "internal/newgame/testdata/bots/java", alternate},
		{"cpp", "internal/newgame/testdata/bots/cpp", alternate},
		{"json-lines", "internal/newgame/testdata/bots/stdio/bot.js", alternate},
	} {
		t.Run(k.kit, func(t *testing.T) {
			t.Parallel()
			rp := filepath.Join(t.TempDir(), "match.json")
			args := []string{"play", newgame.Game, k.bot, "bots/" + newgame.Game + "/cmd/" + newgame.Bot,
				"--rounds", "10", "--seed", "5", "--python", py, "--replay", rp}
			if k.kit == "typescript" {
				args = append(args, "--build-network") // the kit's build fetches its npm packages
			}
			out := run(t, scratch, env, arena, args...)
			rec, err := replay.Read(rp)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if rec.Outcome == nil || len(rec.Outcome.Faults) != 0 || len(rec.Steps) != 10 {
				t.Fatalf("%s: want 10 rounds without a fault, got %d steps, outcome %+v\n%s", k.bot, len(rec.Steps), rec.Outcome, out)
			}
			for i, st := range rec.Steps {
				want := "COIN_SIDE_" + k.calls[i%len(k.calls)]
				for _, a := range st.Answers {
					if a.Seat == 0 && !strings.Contains(string(a.Action), want) {
						t.Fatalf("%s: round %d answered %s, want %s: not the bot's own call", k.bot, i+1, a.Action, want)
					}
				}
			}
		})
	}
}

// run runs a command in dir and fails the test with its output when it fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// copyRepo copies the repository's files to dst, without what is no part of it (version
// control, installed packages, build output); the pinned buf install (.cache/buf) comes along,
// so generation needs no network when it is already there.
func copyRepo(t *testing.T, dst string) {
	t.Helper()
	src, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			switch {
			case rel == ".cache":
				// Only the pinned buf install: generation then needs no network.
				return copyTree(filepath.Join(p, "buf"), filepath.Join(dst, ".cache", "buf"))
			case rel == ".git", rel == "bin", rel == ".venv", d.Name() == "node_modules", d.Name() == "target", d.Name() == "__pycache__":
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		return copyFile(p, filepath.Join(dst, rel))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// copyTree copies a folder as it is (a missing one is nothing to copy).
func copyTree(src, dst string) error {
	if _, err := os.Stat(src); err != nil {
		return filepath.SkipDir
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	if out, err := exec.Command("cp", "-a", src, dst).CombinedOutput(); err != nil {
		return fmt.Errorf("cp -a %s: %v %s", src, err, out)
	}
	return filepath.SkipDir
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, b, fi.Mode().Perm())
}

// pythonWithScratchSDK is a Python like python whose arena_sdk is the scratch copy's (with the
// game's generated tables): its virtual environment hard-linked into the scratch folder, the
// SDK's package replaced by a copy of the scratch source, as a non-editable install would lay
// it out, which the bot sandbox can read.
func pythonWithScratchSDK(t *testing.T, python, scratch string) string {
	t.Helper()
	out, err := exec.Command(python, "-c", "import sys, os, arena_sdk; print(sys.prefix); print(os.path.dirname(arena_sdk.__file__))").Output()
	if err != nil {
		t.Fatalf("%s cannot import arena_sdk (%v): make a venv with the SDK and set ARENA_PYTHON", python, err)
	}
	lines := strings.Fields(string(out))
	prefix, pkg := lines[0], lines[1]
	venv := filepath.Join(scratch, ".venv-coin")
	if b, err := exec.Command("cp", "-al", prefix, venv).CombinedOutput(); err != nil {
		if b, err = exec.Command("cp", "-a", prefix, venv).CombinedOutput(); err != nil {
			t.Fatalf("copying %s: %v %s", prefix, err, b)
		}
	}
	rel, err := filepath.Rel(prefix, pkg)
	if err != nil || strings.HasPrefix(rel, "..") {
		t.Fatalf("arena_sdk (%s) is outside the environment %s: install the SDK non-editable", pkg, prefix)
	}
	sdk := filepath.Join(venv, rel)
	if err := os.RemoveAll(sdk); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command("cp", "-a", filepath.Join(scratch, "sdk", "python", "src", "arena_sdk"), sdk).CombinedOutput(); err != nil {
		t.Fatalf("copying the scratch SDK: %v %s", err, b)
	}
	py := filepath.Join(venv, "bin", "python")
	if b, err := exec.Command(py, "-c", "from arena_sdk import anygame; assert 'coin' in anygame.GAME_MESSAGES, anygame.GAME_MESSAGES").CombinedOutput(); err != nil {
		t.Fatalf("the scratch Python SDK does not know coin: %v\n%s", err, b)
	}
	return py
}

// typeScriptBot is the e2e tests' TypeScript bot of the kit's generic path, a bot folder like
// any other (the arena brings its own TypeScript kit into the build).
func typeScriptBot(t *testing.T, scratch string) string {
	t.Helper()
	rel := filepath.Join("arena", "e2e", "testdata", "anygame", "typescript")
	if _, err := os.Stat(filepath.Join(scratch, rel, "bot.ts")); err != nil {
		t.Fatalf("the generic TypeScript bot is gone: %v", err)
	}
	return rel
}
