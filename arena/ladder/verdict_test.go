package ladder_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// TestVerdictOfABotThatCannotStart: an upload with a JavaScript syntax error, validated by a
// real arena serve (its own worker builds it and plays the smoke match): the verdict says once
// that it exited before it was ready, and its log is the bot's own error, not a transport error.
func TestVerdictOfABotThatCannotStart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := filepath.Join(dir, "arena.db")
	st, err := store.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ada, err := st.CreateUser(ctx, "ada", "!", store.RoleAuthor)
	if err != nil {
		t.Fatal(err)
	}
	up := filepath.Join(dir, "upload")
	os.Mkdir(up, 0o755)
	for _, f := range []string{"bot.js", "package.json"} {
		b, err := os.ReadFile(filepath.Join(root, "examples/javascript/bidding", f))
		if err != nil {
			t.Fatal(err)
		}
		if f == "bot.js" {
			b = append([]byte("const x = = 1;\n"), b...)
		}
		if err := os.WriteFile(filepath.Join(up, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := st.EnsureBot(ctx, ada.ID, "bidding", "broken", "")
	if err != nil {
		t.Fatal(err)
	}
	v, err := st.AddVersion(ctx, b.ID, rating.DefaultMu, rating.DefaultSigma)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetVersionDir(ctx, v.ID, up, "javascript"); err != nil {
		t.Fatal(err)
	}
	// A Go upload that does not compile: the build error names the bot, not the files store.
	goUp := filepath.Join(dir, "goupload")
	os.Mkdir(goUp, 0o755)
	if err := os.WriteFile(filepath.Join(goUp, "main.go"), []byte("package main\n\nfunc main() { undefinedThing() }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gb, err := st.EnsureBot(ctx, ada.ID, "bidding", "gobroken", "")
	if err != nil {
		t.Fatal(err)
	}
	gv, err := st.AddVersion(ctx, gb.ID, rating.DefaultMu, rating.DefaultSigma)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetVersionDir(ctx, gv.ID, goUp, "go"); err != nil {
		t.Fatal(err)
	}
	srv := startArena(t, "serve", "--addr", "127.0.0.1:0", "--store", db, "--nats-listen", "127.0.0.1:0", "--jobs", "1")
	defer srv.Kill9()
	var got store.Version
	within(t, 3*time.Minute, "the upload validated", func() bool {
		got, err = st.VersionByID(ctx, v.ID)
		return err == nil && got.Status != store.VersionValidating
	})
	t.Logf("verdict: %s\nlog:\n%s", got.Verdict, got.Log)
	if got.Status != store.VersionFailed || !strings.Contains(got.Verdict, "exited before it was ready to play") {
		t.Fatalf("verdict: %s %q", got.Status, got.Verdict)
	}
	if !strings.Contains(got.Log, "SyntaxError: Unexpected token '='") || !strings.Contains(got.Log, "const x = = 1;\n          ^") {
		t.Fatalf("the log does not show the syntax error:\n%s", got.Log)
	}
	if !strings.HasPrefix(got.Log, "bot.js:1\n") {
		t.Errorf("the log does not name the upload's own file:\n%s", got.Log)
	}
	for _, noise := range []string{"transport:", "rpc error", "broken pipe", "node:internal", "/run/arena-sandbox", "/bot/"} {
		if strings.Contains(got.Verdict+got.Log, noise) {
			t.Errorf("the verdict shows %q:\n%s\n%s", noise, got.Verdict, got.Log)
		}
	}
	var gotGo store.Version
	within(t, 3*time.Minute, "the Go upload validated", func() bool {
		gotGo, err = st.VersionByID(ctx, gv.ID)
		return err == nil && gotGo.Status != store.VersionValidating
	})
	t.Logf("Go verdict: %s\nlog:\n%s", gotGo.Verdict, gotGo.Log)
	if gotGo.Status != store.VersionFailed || !strings.Contains(gotGo.Verdict, "gobroken v1") || strings.Contains(gotGo.Verdict+gotGo.Log, "arena-sandbox") ||
		!strings.Contains(gotGo.Log, "undefinedThing") {
		t.Fatalf("Go verdict: %s %q\n%s", gotGo.Status, gotGo.Verdict, gotGo.Log)
	}
}
