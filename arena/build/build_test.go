package build

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

func TestMain(m *testing.M) {
	sandbox.Init()
	os.Exit(m.Run())
}

func snapshot(t *testing.T, dir string) submission.Snapshot {
	t.Helper()
	store, err := sandbox.FilesDir()
	if err != nil {
		t.Fatal(err)
	}
	src, err := submission.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := submission.Take(src, store, submission.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestGoHouseBot(t *testing.T) {
	store, _ := sandbox.FilesDir()
	a, err := Go(Options{}, GoBot{Name: "paper", Snap: snapshot(t, "../../bots/dynamite/cmd/paper")}, store)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(a.Dir, "bot")); err != nil || st.Mode()&0o111 == 0 {
		t.Fatalf("no executable bot in %s: %v", a.Dir, err)
	}
}

func TestGoSubmissionOutsideTheRepo(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"github.com/botarena/arena/sdk\"\n\t\"github.com/botarena/arena/sdk/dynamite\"\n)\n\nfunc main() {\n\tsdk.Serve(sdk.Bot{Name: \"rocky\", Games: []sdk.Game{dynamite.Play(func() dynamite.Player {\n\t\treturn dynamite.Func(func(s *dynamite.State) dynamite.Move { return dynamite.Rock })\n\t})}})\n}\n// " + t.Name() + "\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	store, _ := sandbox.FilesDir()
	a, err := Go(Options{}, GoBot{Name: "rocky", Snap: snapshot(t, dir)}, store)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(a.Dir, "bot")); err != nil {
		t.Fatal(err)
	}
}

// A Go bot that imports the arena's own internals (not in the kit it builds against) gets an
// error naming the import and what a bot may import, not go's words about the module lookup.
func TestGoBotImportingTheArenasInternals(t *testing.T) {
	dir := t.TempDir()
	src := "package main\n\nimport (\n\t\"github.com/botarena/arena/internal/slack\"\n\t\"github.com/botarena/arena/sdk\"\n)\n\nvar _ = slack.Env\n\nfunc main() { sdk.Serve(sdk.Bot{}) }\n// " + t.Name() + "\n"
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	store, _ := sandbox.FilesDir()
	_, err := Go(Options{}, GoBot{Name: "insider", Snap: snapshot(t, dir)}, store)
	if !errors.Is(err, ErrBuild) {
		t.Fatalf("err = %v, want a build error", err)
	}
	var be *Error
	errors.As(err, &be)
	for _, want := range []string{"main.go:4:2 imports github.com/botarena/arena/internal/slack", "which a bot cannot import",
		"github.com/botarena/arena/sdk/...", "github.com/botarena/arena/bots/...", "github.com/botarena/arena/proto/...", "the standard library"} {
		if !strings.Contains(be.Reason, want) {
			t.Errorf("the reason does not say %q: %s", want, be.Reason)
		}
	}
}
