//go:build !arenadegraded

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// startOwnedBy starts cmd (which creates a user namespace) from a thread whose effective uid
// is uid, so that uid owns the new namespace. The kernel charges the per-user counters of
// everything inside (inotify instances and watches, user namespaces, ...) to the owner in the
// parent namespace; owned by root, a bot holding 128 inotify instances would make every root
// process on the host fail inotify_init.
//
// Credentials are per thread in Linux: the change is made with raw syscalls on a locked
// thread. The real and saved uids stay 0, so the thread keeps its permitted capabilities and
// raises them again as effective (the euid change cleared them): it still writes the
// namespace's uid and gid maps, which needs CAP_SETUID and CAP_SETGID in the parent namespace.
// Afterwards the thread takes back euid 0 (which restores its effective capabilities) and
// returns to the runtime; it must live on, since the init's parent-death signal fires when
// the thread that cloned it exits. If it cannot be restored it stays locked and parked for the
// life of the process, so no other goroutine ever runs with its credentials.
func startOwnedBy(cmd *exec.Cmd, uid int) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		keep := ^uintptr(0) // -1: leave the real and saved uid as they are
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, keep, uintptr(uid), keep); e != 0 {
			runtime.UnlockOSThread()
			done <- fmt.Errorf("set the thread's effective uid to %d: %w", uid, e)
			return
		}
		err := raiseEffective()
		if err == nil {
			err = cmd.Start()
		}
		done <- err
		if _, _, e := unix.RawSyscall(unix.SYS_SETRESUID, keep, 0, keep); e != 0 {
			select {} // never run anything else on this thread
		}
		runtime.UnlockOSThread()
	}()
	return <-done
}

// raiseEffective sets this thread's effective capabilities to its permitted ones.
func raiseEffective() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	for i := range data {
		data[i].Effective = data[i].Permitted
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}
