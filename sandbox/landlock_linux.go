//go:build !arenadegraded

package sandbox

import (
	"fmt"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock access rights by the ABI version that introduced them.
const (
	llFileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
		unix.LANDLOCK_ACCESS_FS_READ_FILE
	llV1 = llFileRights | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
		unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_DIR |
		unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
		unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	llRead = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
)

// rulesetAttr is struct landlock_ruleset_attr up to ABI 6 (defined here because its Go name
// changes between x/sys versions).
type rulesetAttr struct {
	AccessFS  uint64
	AccessNet uint64
	Scoped    uint64
}

func sameInode(fi os.FileInfo, st *unix.Stat_t) bool {
	s, ok := fi.Sys().(*syscall.Stat_t)
	return ok && s.Ino == st.Ino && s.Dev == st.Dev
}

// landlockABI returns the kernel's Landlock ABI version, or 0 with the reason.
func landlockABI() (int, error) {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0, e
	}
	return int(v), nil
}

// llHandled returns the filesystem rights Landlock can restrict at an ABI version.
func llHandled(abi int) uint64 {
	h := uint64(llV1)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		h |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return h
}

// applyLandlock restricts this thread (and so the bot forked from it) to reading its
// read-only paths and writing only its work directory and a few device files. From ABI 4 it
// also forbids every TCP bind and connect, and from ABI 6 signals and abstract unix sockets
// beyond the bot's own domain. It returns the ABI enforced.
func applyLandlock(cfg *initConfig) (int, error) {
	abi, err := landlockABI()
	if err != nil {
		return 0, fmt.Errorf("landlock unavailable: %w", err)
	}
	if abi > cfg.Landlock {
		abi = cfg.Landlock
	}
	handled := llHandled(abi)
	attr := rulesetAttr{AccessFS: handled}
	size := unsafe.Sizeof(attr.AccessFS)
	if abi >= 4 && !cfg.Network {
		attr.AccessNet = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = unsafe.Offsetof(attr.Scoped)
	}
	if abi >= 6 {
		attr.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
		size = unsafe.Sizeof(attr)
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return 0, fmt.Errorf("landlock_create_ruleset: %w", e)
	}
	defer unix.Close(int(fd))

	add := func(path string, access uint64) error {
		f, err := os.OpenFile(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if os.IsNotExist(err) {
				return nil
			}
			return err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if !st.IsDir() {
			access &= llFileRights | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
		}
		rule := unix.LandlockPathBeneathAttr{Allowed_access: access & handled, Parent_fd: int32(f.Fd())}
		_, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
		if e != 0 {
			return fmt.Errorf("landlock rule for %s: %w", path, e)
		}
		return nil
	}
	for _, b := range cfg.ReadOnly {
		p := b.Dst
		if !cfg.MountNS {
			p = b.Src
		}
		if err := add(p, llRead); err != nil {
			return 0, err
		}
	}
	if cfg.WorkDir != "" {
		if err := add(cfg.WorkAt, handled); err != nil {
			return 0, err
		}
		if cfg.MountNS && !within("/tmp", cfg.WorkAt) {
			if st, err := os.Stat("/tmp"); err == nil && st.IsDir() {
				var wst unix.Stat_t
				// Only when /tmp is the work dir's alias (same inode).
				if unix.Stat(cfg.WorkAt, &wst) == nil && sameInode(st, &wst) {
					if err := add("/tmp", handled); err != nil {
						return 0, err
					}
				}
			}
		}
	}
	for _, n := range devNodes {
		if err := add("/dev/"+n, unix.LANDLOCK_ACCESS_FS_READ_FILE|unix.LANDLOCK_ACCESS_FS_WRITE_FILE|unix.LANDLOCK_ACCESS_FS_IOCTL_DEV); err != nil {
			return 0, err
		}
	}
	if cfg.MountNS {
		// Listing the new root shows only what the sandbox put there.
		if err := add("/", unix.LANDLOCK_ACCESS_FS_READ_DIR); err != nil {
			return 0, err
		}
		for _, p := range []string{"/proc", "/etc", "/dev"} {
			if err := add(p, unix.LANDLOCK_ACCESS_FS_READ_FILE|unix.LANDLOCK_ACCESS_FS_READ_DIR); err != nil {
				return 0, err
			}
		}
	}
	_, _, e = unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0)
	if e != 0 {
		return 0, fmt.Errorf("landlock_restrict_self: %w", e)
	}
	return abi, nil
}
