//go:build !arenadegraded

package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// workTag prefixes the source name of every work-directory tmpfs the sandbox mounts, so that
// Cleanup can find the ones a crashed arena left behind.
const workTag = "arenawork:"

// uidBase is the first host uid handed to sandboxed processes: each process gets two ids of
// its own (its init and its bot), far above any real account and any subuid range in use.
const (
	uidBase  = 2_000_000_000
	uidSlots = 8192
)

var (
	ownerOnce sync.Once
	ownerID   string
)

// owner names this arena process uniquely across pid reuse: "<pid>.<start time>".
func owner() string {
	ownerOnce.Do(func() { ownerID = procOwner(os.Getpid()) })
	return ownerID
}

func procOwner(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	s := string(b)
	if i := strings.LastIndexByte(s, ')'); i >= 0 {
		f := strings.Fields(s[i+1:])
		if len(f) > 19 {
			return strconv.Itoa(pid) + "." + f[19]
		}
	}
	return ""
}

// ownerAlive reports whether the arena process named by an owner id still runs.
func ownerAlive(id string) bool {
	pid, err := strconv.Atoi(strings.SplitN(id, ".", 2)[0])
	if err != nil {
		return false
	}
	return procOwner(pid) == id
}

// stateDir holds the sandbox's own files: the empty mount point for new roots, uid slot
// locks, and a record of each mounted work directory.
func stateDir() string {
	if os.Geteuid() == 0 {
		return "/run/arena-sandbox"
	}
	return filepath.Join(os.TempDir(), "arena-sandbox-"+strconv.Itoa(os.Geteuid()))
}

func ensureState() (string, error) {
	dir := stateDir()
	for _, d := range []string{dir, filepath.Join(dir, "root"), filepath.Join(dir, "slots"), filepath.Join(dir, "work", owner())} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return "", fmt.Errorf("sandbox state directory: %w", err)
		}
	}
	// The new root is mounted here inside each sandbox; bots must be able to walk through it,
	// and through the state dir above it (a 0700 state dir, as an older files store made it on
	// a fresh machine, fails every mount namespace with "permission denied").
	_ = os.Chmod(dir, 0o755)
	_ = os.Chmod(filepath.Join(dir, "root"), 0o755)
	return dir, nil
}

// uidSlot is a pair of host uids held (by an flock) for one sandboxed process.
type uidSlot struct {
	n int
	f *os.File
}

var (
	slotMu   sync.Mutex
	slotNext = -1
)

// takeSlot finds a free uid slot. The lock dies with the arena, so a crash frees its slots.
func takeSlot(state string) (*uidSlot, error) {
	slotMu.Lock()
	defer slotMu.Unlock()
	if slotNext < 0 {
		slotNext = (os.Getpid() * 61) % uidSlots
	}
	for i := 0; i < uidSlots; i++ {
		n := (slotNext + i) % uidSlots
		f, err := os.OpenFile(filepath.Join(state, "slots", strconv.Itoa(n)), os.O_RDWR|os.O_CREATE|syscall.O_CLOEXEC, 0o600)
		if err != nil {
			return nil, fmt.Errorf("uid slot: %w", err)
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			_ = f.Close()
			continue
		}
		slotNext = (n + 1) % uidSlots
		return &uidSlot{n: n, f: f}, nil
	}
	return nil, errors.New("uid slot: all slots are in use")
}

func (s *uidSlot) initUID() int { return uidBase + 2*s.n }
func (s *uidSlot) botUID() int  { return uidBase + 2*s.n + 1 }

func (s *uidSlot) release() {
	if s != nil && s.f != nil {
		_ = s.f.Close()
	}
}

// mountWork puts a size-limited tmpfs owned by the bot's uid on the work directory, in the
// host's mount namespace (the host must see the plugin socket the bot makes there). The
// directories already inside (the host's socket and temp dirs) are made again on top.
func mountWork(state, dir, name string, uid, gid int, size int64, exec bool) (func(), error) {
	var subdirs []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != dir {
			rel, _ := filepath.Rel(dir, p)
			subdirs = append(subdirs, rel)
		}
		return nil
	})
	opts := fmt.Sprintf("mode=0700,uid=%d,gid=%d,nr_inodes=%d", uid, gid, 16384)
	if size > 0 {
		opts += ",size=" + strconv.FormatInt(size, 10)
	}
	flags := uintptr(unix.MS_NOSUID | unix.MS_NODEV | unix.MS_NOEXEC)
	if exec {
		flags &^= unix.MS_NOEXEC
	}
	if err := unix.Mount(workTag+owner(), dir, "tmpfs", flags, opts); err != nil {
		return nil, fmt.Errorf("mount work dir %s: %w", dir, err)
	}
	record := filepath.Join(state, "work", owner(), name)
	_ = os.WriteFile(record, []byte(dir), 0o600)
	undo := func() {
		_ = unix.Unmount(dir, unix.MNT_DETACH)
		_ = os.Remove(record)
	}
	for _, s := range subdirs {
		p := filepath.Join(dir, s)
		if err := os.MkdirAll(p, 0o700); err != nil {
			undo()
			return nil, err
		}
		if err := os.Chown(p, uid, gid); err != nil {
			undo()
			return nil, err
		}
	}
	return undo, nil
}

// CleanupReport says what Cleanup removed.
type CleanupReport struct {
	Cgroups  int
	Mounts   int
	WorkDirs int
	Killed   int
}

func (r CleanupReport) String() string {
	return fmt.Sprintf("removed %d stale cgroups, %d mounts and %d work directories; killed %d leftover processes",
		r.Cgroups, r.Mounts, r.WorkDirs, r.Killed)
}

// Cleanup removes what sandboxes of arena processes that are no longer running left behind:
// their cgroups (killing any process still in them), their work-directory mounts and their
// work directories. Call it once when the arena starts; Probe calls it too. It never touches
// the state of a live arena process.
func Cleanup() (CleanupReport, error) {
	var rep CleanupReport
	var errs []error
	// Cgroups: <base>/<owner>/<process>.
	for _, base := range cgroupBases() {
		owners, _ := os.ReadDir(base)
		for _, o := range owners {
			if !o.IsDir() || ownerAlive(o.Name()) {
				continue
			}
			od := filepath.Join(base, o.Name())
			procs, _ := os.ReadDir(od)
			var dirs []string
			for _, p := range procs {
				if p.IsDir() {
					d := filepath.Join(od, p.Name())
					b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
					rep.Killed += len(strings.Fields(string(b)))
					dirs = append(dirs, d)
				}
			}
			removeCgroupDirs(append(dirs, od))
			rep.Cgroups += len(dirs)
		}
	}
	// Work-directory mounts and their directories.
	state := stateDir()
	if f, err := os.Open("/proc/self/mountinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			for i, fl := range fields {
				if fl == "-" && i+2 < len(fields) && strings.HasPrefix(fields[i+2], workTag) {
					if !ownerAlive(strings.TrimPrefix(fields[i+2], workTag)) {
						if err := unix.Unmount(unescapeMount(fields[4]), unix.MNT_DETACH); err == nil {
							rep.Mounts++
						} else {
							errs = append(errs, err)
						}
					}
				}
			}
		}
		_ = f.Close()
	}
	owners, _ := os.ReadDir(filepath.Join(state, "work"))
	for _, o := range owners {
		if ownerAlive(o.Name()) {
			continue
		}
		od := filepath.Join(state, "work", o.Name())
		recs, _ := os.ReadDir(od)
		for _, r := range recs {
			b, err := os.ReadFile(filepath.Join(od, r.Name()))
			if err == nil && filepath.IsAbs(string(b)) {
				if os.RemoveAll(string(b)) == nil {
					rep.WorkDirs++
				}
			}
		}
		_ = os.RemoveAll(od)
	}
	return rep, errors.Join(errs...)
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mountOverlays mounts each overlay at work/At: Lower read-only below, the upper layer in the
// work dir's own tmpfs (so the disk limit bounds it and it is gone with the work dir). The
// files of Lower must be world-readable and its directories world-writable for the bot's uid
// to add entries; every write lands in the upper layer, never in Lower.
func mountOverlays(work string, ovs []Overlay, uid int) error {
	for i, o := range ovs {
		at := filepath.Join(work, o.At)
		if !within(at, work) || at == work {
			return fmt.Errorf("overlay %q must be inside the work dir", o.At)
		}
		layer := filepath.Join(work, fmt.Sprintf(".overlay-%d", i))
		upper, wk := filepath.Join(layer, "upper"), filepath.Join(layer, "work")
		for _, d := range []string{upper, wk, at} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("overlay %s: %w", o.At, err)
			}
		}
		for _, d := range []string{layer, upper, at} {
			if err := os.Chown(d, uid, uid); err != nil {
				return fmt.Errorf("overlay %s: %w", o.At, err)
			}
		}
		opts := "lowerdir=" + o.Lower + ",upperdir=" + upper + ",workdir=" + wk
		if err := unix.Mount("arena-overlay", at, "overlay", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
			return fmt.Errorf("mount overlay over %s at %s: %w", o.Lower, o.At, err)
		}
	}
	return nil
}

// OverlaysWork reports whether Spec.Overlays can be used here (root, with the work-dir tmpfs).
func OverlaysWork() bool {
	pl := getPlan()
	return pl.root && pl.workTmpfs
}

// filesTag names the tmpfs of the shared files store.
const filesTag = "arenafiles"

var (
	filesOnce sync.Once
	filesDir  string
	filesErr  error
)

// FilesDir is where the arena keeps what sandboxes show read-only through Spec.Mounts (a
// submission's snapshot, a built artefact). As root it is a tmpfs of its own, mounted once per
// boot and shared by every arena process: a bind from it shows in the bot's
// /proc/self/mountinfo as "/<name>" within that tmpfs, never as a host path. Elsewhere it is a
// plain directory (the degraded sandbox shows host paths anyway).
func FilesDir() (string, error) {
	filesOnce.Do(func() { filesDir, filesErr = ensureFiles() })
	return filesDir, filesErr
}

// The store is private (0700): no other local user walks into it to read a submission. What is
// inside keeps its read bits, since each bot's uid reaches its own files only through the bind
// mounts of its sandbox, which do not pass through the store's root.
func ensureFiles() (string, error) {
	// The state dir first, walkable by bots (ensureState's mode): MkdirAll would make every
	// missing parent 0700.
	if err := os.MkdirAll(stateDir(), 0o755); err != nil {
		return "", fmt.Errorf("sandbox state directory: %w", err)
	}
	dir := filepath.Join(stateDir(), "files")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("files store %s: %w", dir, err)
	}
	if os.Geteuid() != 0 {
		return dir, os.Chmod(dir, 0o700)
	}
	lock, err := os.OpenFile(filepath.Join(stateDir(), "files.lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", fmt.Errorf("files store %s: %w", dir, err)
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return "", fmt.Errorf("files store %s: %w", dir, err)
	}
	if mounted(dir) {
		// Mounted 0755 by an older arena: made private now.
		return dir, os.Chmod(dir, 0o700)
	}
	// Pages are allocated as files are written; the size only caps a runaway (the collector
	// of arena/filestore keeps the store under its own, smaller cap).
	if err := unix.Mount(filesTag, dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0700,size=50%,nr_inodes=1000000"); err != nil {
		return "", fmt.Errorf("mount the files store on %s: %w", dir, err)
	}
	return dir, nil
}

// mounted reports whether dir is the root of a mount (its device differs from its parent's).
func mounted(dir string) bool {
	var a, b unix.Stat_t
	if unix.Stat(dir, &a) != nil || unix.Stat(filepath.Dir(dir), &b) != nil {
		return false
	}
	return a.Dev != b.Dev
}
