package cli

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestStoreLock(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "t.db")
	if storeRunning(path) || shownStatus("running", path) == "running" {
		t.Fatal("no lock yet, but the store looks in use")
	}
	release, err := lockStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lockStore(path); !errors.Is(err, ErrStoreBusy) || !strings.Contains(err.Error(), "pid") {
		t.Fatalf("second lock: %v, want ErrStoreBusy naming the pid", err)
	}
	if !storeRunning(path) || shownStatus("running", path) != "running" {
		t.Fatal("a held lock is not seen")
	}
	release()
	if storeRunning(path) || !strings.HasPrefix(shownStatus("running", path), "interrupted") {
		t.Fatal("a released lock still looks held")
	}
	if shownStatus("finished", path) != "finished" {
		t.Fatal("other statuses must pass through")
	}
}
