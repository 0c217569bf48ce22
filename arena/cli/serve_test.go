package cli_test

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/cli"
	"github.com/botarena/arena/arena/server"
	"github.com/botarena/arena/internal/slack"
)

// TestServe starts arena serve on a free port over a new store, reads a page and an API call,
// and stops it with its context (as Ctrl-C does).
func TestServe(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var out syncBuffer
	root := cli.NewRoot(&out, &out)
	root.SetArgs([]string{"serve", "--addr", "127.0.0.1:0", "--store", filepath.Join(dir, "a.db"), "--jobs", "1", "--announcement", "Welcome to the meetup"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	var base string
	for deadline := time.Now().Add(slack.Of(t, 30*time.Second)); base == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(out.String()); m != "" {
			base = m
		}
	}
	if base == "" {
		cancel()
		t.Fatalf("arena serve printed no address: %s", out.String())
	}
	for path, want := range map[string]string{"/": "Welcome to the meetup", "/games/dynamite": "docs/rules/dynamite.md", "/api/v1/games": `"house_bot": "house-beatlast"`, "/games/finger": "house-random"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Fatalf("GET %s: %s\n%s", path, resp.Status, b)
		}
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve ended with %v", err)
		}
	case <-time.After(slack.Of(t, 30*time.Second)):
		t.Fatal("serve did not stop")
	}
}

func TestServeBadFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--jobs", "0", "--store", filepath.Join(dir, "a.db")}, "--jobs"},
		{[]string{"serve", "--secure-cookies", "maybe", "--store", filepath.Join(dir, "a.db")}, "give true, false or auto"},
		{[]string{"serve", "--addr", "nonsense", "--store", filepath.Join(dir, "a.db")}, "--addr"},
		{[]string{"serve", "--store", filepath.Join(dir, "no", "a.db")}, "no"},
		{[]string{"serve", "--store", filepath.Join(dir, "b.db"), "--announcement", strings.Repeat("x", server.MaxAnnouncement+1)}, "--announcement"},
	} {
		code, msg := run(t, c.args...)
		if code == 0 || !strings.Contains(msg, c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, msg)
		}
	}
}
