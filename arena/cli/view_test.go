package cli_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/arena/cli"
	"github.com/botarena/arena/internal/slack"
)

// A replay recorded by `arena play` with real bot processes (arena/viewer's test data).
func viewReplay(t *testing.T) (dir, path string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "arena/viewer/testdata/dynamite-processes.json"))
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	path = filepath.Join(dir, "m.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, path
}

func TestViewWritesPageAndNeverLosesData(t *testing.T) {
	t.Parallel()
	dir, rp := viewReplay(t)
	original, _ := os.ReadFile(rp)
	out := filepath.Join(dir, "m.html")
	code, msg := run(t, "view", rp, "--out", out)
	if code != 0 || !strings.Contains(msg, "wrote "+out) {
		t.Fatalf("exit %d: %s", code, msg)
	}
	html, err := os.ReadFile(out)
	if err != nil || !bytes.Contains(html, []byte(`id="arena-replay"`)) || !bytes.Contains(html, []byte("dynamite-11")) {
		t.Fatalf("the page %s is not a replay page (%v)", out, err)
	}
	// Writing again over its own page is fine.
	if code, msg := run(t, "view", rp, "--out", out); code != 0 {
		t.Fatalf("rewriting the page: exit %d: %s", code, msg)
	}

	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte("my notes"), 0o644)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"over the replay", []string{"view", rp, "--out", rp}, "is the replay itself"},
		{"over another file", []string{"view", rp, "--out", notes}, "not a page written by 'arena view'"},
		{"into a folder", []string{"view", rp, "--out", dir}, "is a folder"},
		{"missing replay", []string{"view", filepath.Join(dir, "none.json")}, "cannot open replay"},
	} {
		code, msg := run(t, c.args...)
		if code == 0 || !strings.Contains(msg, c.want) {
			t.Errorf("%s: exit %d, output %q, want an error saying %q", c.name, code, msg, c.want)
		}
	}
	if b, _ := os.ReadFile(rp); !bytes.Equal(b, original) {
		t.Fatal("the replay changed")
	}
	if b, _ := os.ReadFile(notes); string(b) != "my notes" {
		t.Fatal("notes.txt was overwritten without --force")
	}
	if code, msg := run(t, "view", rp, "--out", notes, "--force"); code != 0 {
		t.Fatalf("--force: exit %d: %s", code, msg)
	}
	if b, _ := os.ReadFile(notes); !bytes.Contains(b, []byte(`id="arena-replay"`)) {
		t.Fatal("--force did not write the page")
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".view-*"))
	if len(left) > 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

// syncBuffer is a bytes.Buffer safe to read while the command writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestViewServes(t *testing.T) {
	t.Parallel()
	_, rp := viewReplay(t)
	var out syncBuffer
	root := cli.NewRoot(&out, &out)
	root.SetArgs([]string{"view", rp, "--serve", "127.0.0.1:0"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	addr := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`)
	var url string
	for deadline := time.Now().Add(slack.Of(t, 20*time.Second)); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := addr.FindStringSubmatch(out.String()); m != nil {
			url = "http://" + m[1]
			break
		}
	}
	if url == "" {
		cancel()
		t.Fatalf("the command never said where it serves: %q", out.String())
	}
	resp, err := http.Get(url + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(body, []byte(`id="arena-replay"`)) {
		t.Fatalf("GET /: %s %s, %d bytes", resp.Status, resp.Header.Get("Content-Type"), len(body))
	}
	if resp, err := http.Get(url + "/other"); err != nil || resp.StatusCode != 404 {
		t.Fatalf("GET /other: %v %v, want 404", resp, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the server stopped with %v", err)
		}
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("the server did not stop when its context ended")
	}
}
