package botspec

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/kit"
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

// An environment marked ready whose interpreter link is broken (the python3 it was made with
// was removed or upgraded) is made again, saying why, instead of being handed to every bot.
func TestOwnPythonRemadeWhenItsInterpreterIsGone(t *testing.T) {
	resetOwn(t)
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache)
	sdk, err := kit.Get(kit.Python)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, "arena", "python-"+sdk.Short())
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "python3.9")
	// As venv makes it: python -> python3 -> the interpreter it was made with.
	if err := os.Symlink(gone, filepath.Join(dir, "bin", "python3")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("python3", filepath.Join(dir, "bin", "python")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ready"), []byte(sdk.Hash+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The remake runs this python3, which fails as one without venv does: the attempt shows.
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "python3"), []byte("#!/bin/sh\necho 'no venv here' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+":/usr/bin:/bin")
	var log bytes.Buffer
	exe, err := OwnPython(&log)
	if err == nil {
		t.Fatalf("OwnPython handed out %s, whose interpreter link is broken (log %q)", exe, log.String())
	}
	if !errors.Is(err, ErrOwnPython) || !strings.Contains(err.Error(), "no venv here") {
		t.Fatalf("err = %v, want the remake's own failure", err)
	}
	if l := log.String(); !strings.Contains(l, "is broken") || !strings.Contains(l, gone) || !strings.Contains(l, "making it again") {
		t.Fatalf("the log does not say the environment was broken and why: %q", l)
	}
}
