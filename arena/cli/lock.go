package cli

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// ErrStoreBusy means another arena process is running a tournament in the same store.
var ErrStoreBusy = errors.New("store in use")

// lockStore takes the store's run lock (an flock on STORE.lock, released by the kernel when the
// process ends, however it ends), so two runs never play the same pending matches and
// `arena show` can tell a running tournament from an interrupted one.
func lockStore(path string) (release func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("cannot lock store %s (its run lock %s.lock cannot be created: %w): a tournament writes "+
			"the store and its folder; give a --store in a writable folder (arena store backup copies one there), "+
			"arena show reads it where it is", path, path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path + ".lock")
		f.Close()
		who := strings.TrimSpace(string(b))
		if who == "" {
			who = "another process"
		} else {
			who = "pid " + who
		}
		return nil, fmt.Errorf("%w: %s is running a tournament in %s (%s.lock); wait for it, stop it, or use another --store", ErrStoreBusy, who, path, path)
	}
	_ = f.Truncate(0)
	_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// storeRunning reports whether some arena process holds the store's run lock now.
func storeRunning(path string) bool {
	f, err := os.Open(path + ".lock")
	if err != nil {
		return false
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err != nil {
		return true
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false
}

// shownStatus is a tournament's status as stored, except that a "running" tournament with no
// arena holding the store is really interrupted.
func shownStatus(status, storePath string) string {
	if status == "running" && !storeRunning(storePath) {
		return "interrupted (continue with --resume)"
	}
	return status
}
