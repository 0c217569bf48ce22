package build

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/submission"
)

// A build whose output is over the per-submission quota fails as that bot's build, naming
// the quota and the fix, and adds nothing to the files store (a private one here); under the
// quota the same submission builds.
func TestBuildOutputQuota(t *testing.T) {
	store := filepath.Join(t.TempDir(), "files")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot.js"), []byte("// a bot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"big","version":"1.0.0"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 3<<20)
	_, _ = rand.Read(data)
	if err := os.WriteFile(filepath.Join(dir, "model.bin"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	src, err := submission.Parse(dir)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := submission.Take(src, store, submission.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	bot := StdioBot{Name: "big", Kind: submission.JavaScript, Snap: snap}
	_, err = Stdio(Options{OutputQuota: 1 << 20}, bot, store)
	if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), "per-submission quota of 1 MiB") || !strings.Contains(err.Error(), "--build-output") {
		t.Fatalf("a 3 MiB output under a 1 MiB quota: %v", err)
	}
	if arts, _ := filepath.Glob(filepath.Join(store, "art", "lang-*[^k]")); len(arts) != 0 { // but its .lock
		t.Fatalf("the refused output entered the store: %v", arts)
	}
	if tmp, _ := os.ReadDir(filepath.Join(store, filestore.TmpDir)); len(tmp) != 0 {
		t.Fatalf("the refused build left %d folders in tmp", len(tmp))
	}
	a, err := Stdio(Options{OutputQuota: 8 << 20}, bot, store)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(a.Dir, "model.bin")); err != nil || st.Size() != int64(len(data)) {
		t.Fatalf("under the quota the build's copy lacks its data: %v", err)
	}
}
