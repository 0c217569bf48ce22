package build

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/botarena/arena/arena/filestore"
)

// Warmed compiler caches live outside the files store: one a live arena process leases is
// kept however long ago it was last used (the running tournament of another kit builds on it);
// one nobody leases goes once unused for an hour; a fresh one stays.
func TestPruneCachesSparesLeased(t *testing.T) {
	store := filepath.Join(t.TempDir(), "files")
	cache := t.TempDir()
	fs, err := filestore.Open(store)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-3 * time.Hour)
	mk := func(name string, at time.Time) string {
		d := filepath.Join(cache, name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "ready"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(d, "ready"), at, at); err != nil {
			t.Fatal(err)
		}
		return d
	}
	leased, unleased, fresh := mk("gocache-leased", old), mk("gocache-unleased", old), mk("gocache-fresh", time.Now())
	if err := fs.UseOutside(leased); err != nil {
		t.Fatal(err)
	}
	pruneCaches(store, cache, "gocache-current")
	for d, want := range map[string]bool{leased: true, unleased: false, fresh: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s: kept %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}
