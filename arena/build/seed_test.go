package build

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/sandbox"
)

// A new kit's warm-up starts from the newest sealed cache of the same toolchain, read through
// an overlay: what the seed holds is in the new cache, the seed's marker is not, and the seed
// itself is left as it was. An older sealed cache, another toolchain's and an unsealed one
// (builds wrote into it directly) are never the seed.
func TestWarmCacheStartsFromAnotherKits(t *testing.T) {
	if !sandbox.OverlaysWork() {
		if os.Getenv("ARENA_REQUIRE_SANDBOX") == "1" {
			t.Fatal("overlays do not work here (root and the work-dir tmpfs), and ARENA_REQUIRE_SANDBOX=1")
		}
		t.Skip("overlays need root and the work-dir tmpfs")
	}
	tc, err := HostGo()
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-time.Hour)
	for _, c := range []struct{ name, mark string }{
		{"seed", tc.Version}, {"older", tc.Version}, {"other", "go1.0"}, {"unsealed", ""},
	} {
		dir := filepath.Join(cache, "gocache-"+c.name)
		write(filepath.Join(dir, "from-"+c.name), c.name)
		write(filepath.Join(dir, "ready"), c.mark)
		if c.name != "seed" {
			if err := os.Chtimes(filepath.Join(dir, "ready"), hourAgo, hourAgo); err != nil {
				t.Fatal(err)
			}
		}
	}
	seedFiles := func() int {
		n := 0
		_ = filepath.Walk(filepath.Join(cache, "gocache-seed"), func(string, os.FileInfo, error) error { n++; return nil })
		return n
	}
	before := seedFiles()

	// A kit of one package without imports: its warm-up compiles that package and nothing else.
	kitDir := t.TempDir()
	write(filepath.Join(kitDir, "go.mod"), "module example.com/tiny\n\ngo 1.22\n")
	write(filepath.Join(kitDir, "tiny", "tiny.go"), "package tiny\n\n// X is here to be compiled.\nconst X = 1\n")
	store, err := sandbox.FilesDir()
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	o := Options{Cache: cache, Log: &log}.WithDefaults()
	dir, fresh, err := warmCache(o, tc, Kit{Name: "tiny", Dir: kitDir, Hash: "tiny-" + t.Name()}, store)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !fresh || !strings.Contains(log.String(), filepath.Join(cache, "gocache-seed")) {
		t.Fatalf("the warm-up did not say it started from gocache-seed (fresh %v):\n%s", fresh, log.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "from-seed")); err != nil {
		t.Errorf("the new cache lacks the seed's entry: %v", err)
	}
	for _, not := range []string{"older", "other", "unsealed"} {
		if _, err := os.Stat(filepath.Join(dir, "from-"+not)); err == nil {
			t.Errorf("the new cache holds an entry of gocache-%s, which is no seed", not)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dir, "ready")); err != nil || string(b) != tc.Version {
		t.Errorf("the new cache's marker is %q (%v), want its toolchain %q", b, err, tc.Version)
	}
	entries, _ := filepath.Glob(filepath.Join(dir, "??"))
	if len(entries) == 0 {
		t.Errorf("the warm-up compiled nothing into %s: no Go cache folders", dir)
	}
	if got := seedFiles(); got != before {
		t.Errorf("the seed changed: %d files before the warm-up, %d after", before, got)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "gocache-seed", "ready")); err != nil || string(b) != tc.Version {
		t.Errorf("the seed's marker is now %q (%v)", b, err)
	}
}
