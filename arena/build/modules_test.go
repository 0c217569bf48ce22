package build

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With an empty module cache and no way to the network, the first Go build is one error that
// names the cache and the fix, before any sandbox starts; with the machine's own cache, the
// kit's modules are there (fetched if need be) and a marker records it.
func TestModulesOfTheKit(t *testing.T) {
	tc, err := HostGo()
	if err != nil {
		t.Fatal(err)
	}
	k, err := GoKit()
	if err != nil {
		t.Fatal(err)
	}
	t.Run("offline and empty", func(t *testing.T) {
		t.Setenv("GOPROXY", "off")
		empty := tc
		empty.ModCache = t.TempDir()
		err := Modules(empty, k, Options{})
		if !errors.Is(err, ErrModules) {
			t.Fatalf("err = %v, want ErrModules", err)
		}
		for _, want := range []string{empty.ModCache, "GOPROXY", "network", "go mod download"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("the error does not name %q: %v", want, err)
			}
		}
		if _, err := os.Stat(filepath.Join(empty.ModCache, "cache", "arena")); err == nil {
			t.Error("a marker was written for a cache that lacks the modules")
		}
	})
	t.Run("stopped", func(t *testing.T) {
		empty := tc
		empty.ModCache = t.TempDir()
		stop, cancel := context.WithCancel(context.Background())
		cancel()
		if err := Modules(empty, k, Options{Stop: stop}); !errors.Is(err, ErrStopped) {
			t.Fatalf("err = %v, want ErrStopped", err)
		}
	})
	t.Run("the machine's cache", func(t *testing.T) {
		var log strings.Builder
		if err := Modules(tc, k, Options{Log: &log}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(tc.ModCache, "cache", "arena", "kit-"+k.Hash[:24])); err != nil {
			t.Fatalf("no marker after the modules were fetched: %v", err)
		}
	})
}
