package botspec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// resetOwn forgets the environment found by an earlier call.
func resetOwn(t *testing.T) {
	ownMu.Lock()
	ownExe = ""
	ownMu.Unlock()
	t.Cleanup(func() {
		ownMu.Lock()
		ownExe = ""
		ownMu.Unlock()
	})
}

// Without python3, or with one that has no venv module, the arena's own environment is one
// clear error naming the fix; nothing is left half made in the cache, and no interpreter of
// the working directory is taken instead.
func TestOwnPythonErrorsNameTheFix(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	t.Setenv("HOME", t.TempDir())
	// A python3 in the working directory must never be used.
	wd := t.TempDir()
	bait := filepath.Join(wd, "python3")
	if err := os.WriteFile(bait, []byte("#!/bin/sh\ntouch "+filepath.Join(wd, "ran")+"\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(wd)

	t.Run("no python3", func(t *testing.T) {
		resetOwn(t)
		t.Setenv("PATH", t.TempDir())
		var log bytes.Buffer
		_, err := OwnPython(&log)
		if !errors.Is(err, ErrOwnPython) || !strings.Contains(err.Error(), "no python3 on PATH") || !strings.Contains(err.Error(), "--python or ARENA_PYTHON") {
			t.Fatalf("err = %v, want ErrOwnPython naming python3 and --python", err)
		}
	})
	t.Run("no venv module", func(t *testing.T) {
		resetOwn(t)
		bin := t.TempDir()
		fake := "#!/bin/sh\necho 'The virtual environment was not created successfully because ensurepip is not available.' >&2\nexit 1\n"
		if err := os.WriteFile(filepath.Join(bin, "python3"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		t.Setenv("PATH", bin+":/usr/bin:/bin")
		var log bytes.Buffer
		_, err := OwnPython(&log)
		if !errors.Is(err, ErrOwnPython) || !strings.Contains(err.Error(), "python3-venv") || !strings.Contains(err.Error(), "ensurepip") {
			t.Fatalf("err = %v, want ErrOwnPython naming python3-venv with python's own words", err)
		}
		if !strings.Contains(log.String(), "making its Python environment") {
			t.Fatalf("the attempt was not announced: %q", log.String())
		}
		des, _ := os.ReadDir(filepath.Join(cache, "arena"))
		for _, d := range des {
			if d.IsDir() {
				t.Fatalf("a half-made environment is left in the cache: %s", d.Name())
			}
		}
	})
	if _, err := os.Stat(filepath.Join(wd, "ran")); err == nil {
		t.Fatal("the python3 of the working directory ran")
	}
}
