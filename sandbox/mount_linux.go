//go:build !arenadegraded

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// devNodes are the device files a bot may use, bound from the host's /dev.
var devNodes = []string{"null", "zero", "full", "random", "urandom"}

// etcFiles are written into the new root so that ordinary programs find a user and localhost.
var etcFiles = map[string]string{
	"passwd": "root:x:0:0:root:/nonexistent:/usr/sbin/nologin\nbot:x:1000:1000:arena bot:/tmp:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n",
	"group":  "root:x:0:\nbot:x:1000:\nnogroup:x:65534:\n",
	"hosts":  "127.0.0.1 localhost arena\n::1 localhost\n",
}

// setupMounts builds the bot's whole view of the filesystem: a fresh read-only tmpfs root that
// holds only the read-only binds, the work directory (read-write, at its host path, so the
// plugin socket the bot makes there is the one the host connects to), a minimal /dev, a /proc
// of the bot's own PID namespace and a few /etc files; then it pivots into it and detaches the
// host's tree, so nothing else of the host is reachable.
func setupMounts(cfg *initConfig) error {
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	root := cfg.RootDir
	if err := unix.Mount("arena-root", root, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m,nr_inodes=4096,mode=0755"); err != nil {
		return fmt.Errorf("mount root tmpfs on %s: %w", root, err)
	}
	for _, b := range cfg.ReadOnly {
		if err := bindMount(root, b.Src, b.FD, b.Dst, b.Dir, true); err != nil {
			return err
		}
	}
	if cfg.WorkDir != "" {
		if err := bindMount(root, cfg.WorkDir, cfg.WorkFD, cfg.WorkAt, true, false); err != nil {
			return err
		}
		// /tmp is the work dir too, unless that would hide a bound path.
		alias := !within(cfg.WorkAt, "/tmp")
		for _, b := range cfg.ReadOnly {
			alias = alias && !within(b.Dst, "/tmp")
		}
		if alias {
			if err := bindMount(root, filepath.Join(root, cfg.WorkAt), 0, "/tmp", true, false); err != nil {
				return err
			}
		}
	}
	if err := setupDev(root); err != nil {
		return err
	}
	if cfg.PIDNS {
		p := filepath.Join(root, "proc")
		if err := os.MkdirAll(p, 0o555); err != nil {
			return err
		}
		if err := unix.Mount("proc", p, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
			return fmt.Errorf("mount /proc: %w", err)
		}
	}
	etc := filepath.Join(root, "etc")
	if err := os.MkdirAll(etc, 0o755); err != nil {
		return err
	}
	for name, text := range etcFiles {
		p := filepath.Join(etc, name)
		if _, err := os.Lstat(p); err == nil {
			continue // bound from the host on purpose
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
	}
	if err := unix.Mount("", root, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return fmt.Errorf("make root read-only: %w", err)
	}
	if err := unix.Chdir(root); err != nil {
		return err
	}
	// pivot_root(".", ".") stacks the old root under the new one; detaching it leaves only
	// the new root reachable, without needing a directory for the old one.
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the host's root: %w", err)
	}
	return unix.Chdir("/")
}

func setupDev(root string) error {
	dev := filepath.Join(root, "dev")
	if err := os.MkdirAll(dev, 0o755); err != nil {
		return err
	}
	if err := unix.Mount("arena-dev", dev, "tmpfs", unix.MS_NOSUID|unix.MS_NOEXEC, "size=64k,nr_inodes=64,mode=0755"); err != nil {
		return fmt.Errorf("mount /dev: %w", err)
	}
	for _, n := range devNodes {
		dst := filepath.Join(dev, n)
		if err := os.WriteFile(dst, nil, 0o666); err != nil {
			return err
		}
		if err := unix.Mount("/dev/"+n, dst, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("bind /dev/%s: %w", n, err)
		}
	}
	links := map[string]string{"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0",
		"stdout": "/proc/self/fd/1", "stderr": "/proc/self/fd/2"}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(dev, name)); err != nil {
			return err
		}
	}
	if err := unix.Mount("", dev, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("make /dev read-only: %w", err)
	}
	return nil
}

// bindMount shows host path src at dst inside root. With fd > 0, src arrives as a detached
// mount the host made (open_tree, already read-only): the init may be unprivileged on the
// host and unable to reach src itself, and a bind from the host's mount namespace is refused.
// The mount point is created in the new root; read-only binds keep every flag the kernel
// locked on the source mount (a user namespace may add restrictions, never drop them).
func bindMount(root, src string, fd int, dst string, dir, ro bool) error {
	target := filepath.Join(root, dst)
	if dir {
		if err := os.MkdirAll(target, 0o755); err != nil {
			return err
		}
	} else {
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if _, err := os.Lstat(target); err != nil {
			if err := os.WriteFile(target, nil, 0o644); err != nil {
				return err
			}
		}
	}
	if fd > 0 {
		err := unix.MoveMount(fd, "", unix.AT_FDCWD, target, unix.MOVE_MOUNT_F_EMPTY_PATH)
		_ = unix.Close(fd)
		if err != nil {
			return fmt.Errorf("attach %s at %s: %w", src, dst, err)
		}
		return nil
	} else if err := unix.Mount(src, target, "", unix.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind %s at %s: %w", src, dst, err)
	}
	flags := uintptr(unix.MS_REMOUNT | unix.MS_BIND | unix.MS_NOSUID | unix.MS_NODEV)
	if ro {
		flags |= unix.MS_RDONLY
	}
	var st unix.Statfs_t
	if err := unix.Statfs(target, &st); err == nil {
		flags |= lockedFlags(st.Flags)
	}
	if err := unix.Mount("", target, "", flags, ""); err != nil {
		return fmt.Errorf("remount %s read-only: %w", dst, err)
	}
	return nil
}

// lockedFlags maps statfs flags to the mount flags a remount must keep.
func lockedFlags(f int64) uintptr {
	var out uintptr
	for _, m := range []struct {
		st int64
		ms uintptr
	}{
		{unix.ST_RDONLY, unix.MS_RDONLY}, {unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV},
		{unix.ST_NOEXEC, unix.MS_NOEXEC}, {unix.ST_NOATIME, unix.MS_NOATIME},
		{unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if f&m.st != 0 {
			out |= m.ms
		}
	}
	return out
}
