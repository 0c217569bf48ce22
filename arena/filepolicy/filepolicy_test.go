package filepolicy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTallyCountsFoldersOnce: a folder counts once whether an archive names it or only a
// file's path implies it, in either order.
func TestTallyCountsFoldersOnce(t *testing.T) {
	t.Parallel()
	tl := Policy{Entries: 4}.Tally()
	for _, e := range []struct {
		rel  string
		mode fs.FileMode
	}{{"a/b/x.py", 0}, {"a/", fs.ModeDir}, {"a/b", fs.ModeDir}, {"a/y.py", 0}} {
		if err := tl.Admit(strings.TrimSuffix(e.rel, "/"), e.mode, 1); err != nil {
			t.Fatalf("%s: %v", e.rel, err)
		}
	}
	if tl.Entries() != 4 || tl.Bytes() != 2 {
		t.Fatalf("entries %d, bytes %d; want 4 and 2", tl.Entries(), tl.Bytes())
	}
	if err := tl.Admit("c", fs.ModeDir, 0); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "more than 4 files and folders (at c)") {
		t.Fatalf("a fifth entry: %v", err)
	}
}

// TestTallyBounds: bytes per file and in all, the room a copy may take, depth and kinds.
func TestTallyBounds(t *testing.T) {
	t.Parallel()
	tl := Policy{FileBytes: 10, Bytes: 15}.Tally()
	if got := tl.Room(); got != 10 {
		t.Fatalf("room %d, want 10 (one file's bound)", got)
	}
	if err := tl.Admit("a", 0, 10); err != nil {
		t.Fatal(err)
	}
	if got := tl.Room(); got != 5 {
		t.Fatalf("room %d, want 5 (what is left in all)", got)
	}
	if err := tl.Admit("b", 0, 11); !errors.Is(err, ErrTooBig) || !strings.Contains(err.Error(), "b is more than 10 bytes") {
		t.Fatalf("a file over its bound: %v", err)
	}
	if err := (Policy{Bytes: 15}).Tally().Admit("c", 0, -1); !errors.Is(err, ErrTooBig) {
		t.Fatalf("a negative size: %v", err)
	}
	if got := (Policy{}).Tally().Room(); got <= 1<<62 {
		t.Fatalf("room without bounds %d", got)
	}
	deep := strings.Repeat("d/", MaxDepth) + "x"
	if err := (Policy{}).Tally().Admit(deep, 0, 0); !errors.Is(err, ErrTooDeep) {
		t.Fatalf("%d folders deep: %v", MaxDepth+1, err)
	}
	for mode, says := range map[fs.FileMode]string{fs.ModeSymlink: "symbolic link", fs.ModeNamedPipe: "named pipe",
		fs.ModeDevice | fs.ModeCharDevice: "device", fs.ModeSocket: "socket", fs.ModeIrregular: "special file"} {
		if err := (Policy{}).Tally().Admit("x/e", mode, 0); !errors.Is(err, ErrNotPlain) || !strings.Contains(err.Error(), "x/e is a "+says) {
			t.Fatalf("%v: %v", mode, err)
		}
	}
}

// TestMeasure: a tree on disk is counted as an archive of it would be, and judged.
func TestMeasure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a", "b", "x.py"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	tl, err := Measure(dir, Policy{})
	if err != nil || tl.Entries() != 3 || tl.Bytes() != 5 {
		t.Fatalf("entries %d, bytes %d, %v; want 3, 5", tl.Entries(), tl.Bytes(), err)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "a", "p")); err != nil {
		t.Fatal(err)
	}
	if _, err := Measure(dir, Policy{}); !errors.Is(err, ErrNotPlain) || !strings.Contains(err.Error(), "a/p is a symbolic link") {
		t.Fatalf("a link: %v", err)
	}
}
