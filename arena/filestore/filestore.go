package filestore

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Kinds are the folders of entries: each direct child of one is leased and collected whole.
// fetched/ is what older arenas' queued workers kept as a second copy of each snapshot;
// nothing leases it any more, so it goes first when the store is over its cap.
var Kinds = []string{"snap", "art", "kit", "fetched"}

// Names of the store's own files and folders.
const (
	LeasesDir = "leases"
	TmpDir    = "tmp"
	lockName  = "collect.lock"
	LogName   = "collect.log"
)

// outside prefixes a lease line naming a folder outside the store (a compiler cache).
const outside = "outside:"

// logMax bounds collect.log; past it the log starts again (the previous one kept as .1).
const logMax = 1 << 20

// legacyAge is how old a temporary folder left at the store's root by an older arena (which
// took no lease) must be before it is removed: its owner cannot be asked.
const legacyAge = time.Hour

var capBytes atomic.Int64

// SetCap sets the size the collector keeps the store under, in bytes (the --files-cap flag);
// 0 or less restores DefaultCap.
func SetCap(n int64) { capBytes.Store(max(n, 0)) }

// Cap is the size the collector keeps the store under.
func Cap() int64 {
	if n := capBytes.Load(); n > 0 {
		return n
	}
	return DefaultCap()
}

// DefaultCap is a quarter of the machine's memory (the store's tmpfs may grow to half of it:
// the other half is headroom for what live runs lease), at least 1 GiB.
func DefaultCap() int64 { return max(totalMemory()/4, 1<<30) }

// Store is one files store, opened once per process (Open).
type Store struct {
	// Dir is the store's root.
	Dir string
	// Log, when set, also receives each line the collector writes to collect.log.
	Log func(string)

	id    string   // this process's lease
	lease *os.File // held with an exclusive flock until the process ends

	mu   sync.Mutex
	used map[string]bool
	cap  int64 // a test's own cap; 0: Cap()

	colMu sync.Mutex
}

var (
	openMu sync.Mutex
	opened = map[string]*Store{}
)

// Open returns this process's handle on the store at dir, creating its layout and this
// process's lease the first time; the first Open also collects (dead leases, their
// half-written folders, stale build locks, then least recently used entries over the cap).
func Open(dir string) (*Store, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	openMu.Lock()
	defer openMu.Unlock()
	if s := opened[abs]; s != nil {
		return s, nil
	}
	s := &Store{Dir: abs, used: map[string]bool{}}
	if err := s.layout(); err != nil {
		return nil, err
	}
	if err := s.takeLease(); err != nil {
		return nil, err
	}
	opened[abs] = s
	if _, err := s.Collect(); err != nil {
		s.logf("collect at start: %v", err)
	}
	return s, nil
}

// layout makes the store's folders: the root 0700, so no other local user reads a submission.
func (s *Store) layout() error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("files store %s: %w", s.Dir, err)
	}
	if err := os.Chmod(s.Dir, 0o700); err != nil {
		return fmt.Errorf("files store %s: make it private (0700): %w", s.Dir, err)
	}
	for _, d := range append([]string{LeasesDir, TmpDir}, Kinds[:3]...) {
		p := filepath.Join(s.Dir, d)
		if err := os.MkdirAll(p, 0o700); err != nil {
			return fmt.Errorf("files store %s: %w", s.Dir, err)
		}
	}
	return nil
}

// takeLease creates leases/<id> and holds its flock for the life of the process. It is
// created under the shared store lock, so no collector sees it before it is locked.
func (s *Store) takeLease() error {
	unlock, err := s.lock(syscall.LOCK_SH)
	if err != nil {
		return err
	}
	defer unlock()
	s.id = fmt.Sprintf("%d-%s", os.Getpid(), random())
	f, err := os.OpenFile(filepath.Join(s.Dir, LeasesDir, s.id), os.O_CREATE|os.O_EXCL|os.O_RDWR|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("files store %s: lease: %w", s.Dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("files store %s: lock the lease: %w", s.Dir, err)
	}
	s.lease = f
	return nil
}

// SetCap gives this store a cap of its own (tests); 0 follows Cap().
func (s *Store) SetCap(n int64) {
	s.mu.Lock()
	s.cap = n
	s.mu.Unlock()
}

func (s *Store) capBytes() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cap > 0 {
		return s.cap
	}
	return Cap()
}

// ID is this process's lease id (the prefix of its tmp folders).
func (s *Store) ID() string { return s.id }

// Path is an entry's folder ("snap/<hash>" -> <store>/snap/<hash>).
func (s *Store) Path(entry string) string { return filepath.Join(s.Dir, filepath.FromSlash(entry)) }

// Entry names the entry of kind ("snap", "art", "kit") called name.
func Entry(kind, name string) string { return kind + "/" + name }

func checkEntry(entry string) error {
	kind, name, ok := strings.Cut(entry, "/")
	if !ok || !slices.Contains(Kinds, kind) || name == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
		return fmt.Errorf("files store: %q is not an entry (kind/name, kind one of %s)", entry, strings.Join(Kinds, ", "))
	}
	return nil
}

// Use leases entry for the rest of this process's life, marks it used now (for the collector's
// least-recently-used order) and reports whether it exists. Call it before looking at the
// entry: once Use returns, no collector removes the entry, and one that did not exist may be
// made (in a Temp folder, renamed into place).
func (s *Store) Use(entry string) (bool, error) {
	if err := checkEntry(entry); err != nil {
		return false, err
	}
	unlock, err := s.lock(syscall.LOCK_SH)
	if err != nil {
		return false, err
	}
	defer unlock()
	if err := s.record(entry); err != nil {
		return false, err
	}
	now := time.Now()
	if err := os.Chtimes(s.Path(entry), now, now); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return false, nil
		}
		return false, fmt.Errorf("files store: mark %s used: %w", entry, err)
	}
	return true, nil
}

// UseOutside leases a folder outside the store (a compiler cache under the user's cache
// folder) that a collector of its own (Exclusive) must leave alone while this process lives.
func (s *Store) UseOutside(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	unlock, err := s.lock(syscall.LOCK_SH)
	if err != nil {
		return err
	}
	defer unlock()
	return s.record(outside + abs)
}

// record appends a line to this process's lease, once per entry.
func (s *Store) record(line string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used[line] {
		return nil
	}
	if _, err := s.lease.WriteString(line + "\n"); err != nil {
		return fmt.Errorf("files store: lease %s: %w", line, err)
	}
	s.used[line] = true
	return nil
}

// Temp makes a folder (0755) in which this process writes a new entry of kind, to be renamed
// into place (Put) or removed; if the process dies first, the next collector removes it.
func (s *Store) Temp(kind string) (string, error) {
	d, err := os.MkdirTemp(filepath.Join(s.Dir, TmpDir), s.id+"."+kind+".")
	if err != nil {
		return "", fmt.Errorf("files store: %w", err)
	}
	// The entry's own folder is what a bot's uid walks into through its bind mount.
	if err := os.Chmod(d, 0o755); err != nil {
		os.RemoveAll(d)
		return "", err
	}
	return d, nil
}

// Put renames tmp (a Temp folder) into place as entry, which the caller leased with Use. An
// entry made meanwhile by another process is kept (entries are named by their content) and
// tmp removed. Then the store is collected if it is over its cap.
func (s *Store) Put(tmp, entry string) error {
	if err := checkEntry(entry); err != nil {
		return err
	}
	dst := s.Path(entry)
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		if _, serr := os.Stat(dst); serr != nil {
			return fmt.Errorf("files store: put %s: %w", entry, err)
		}
	}
	s.Added()
	return nil
}

// Added collects when the store is over its cap: call it after adding to the store. Cheap
// when under the cap (one statfs where the store is a tmpfs of its own).
func (s *Store) Added() {
	if s.usage() <= s.capBytes() {
		return
	}
	if _, err := s.Collect(); err != nil {
		s.logf("collect: %v", err)
	}
}

// lock takes the store's collect lock, shared (users) or exclusive (the collector).
func (s *Store) lock(how int) (func(), error) {
	f, err := os.OpenFile(filepath.Join(s.Dir, lockName), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("files store %s: %w", s.Dir, err)
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, fmt.Errorf("files store %s: lock: %w", s.Dir, err)
	}
	return func() { f.Close() }, nil
}

// Removed is one entry the collector removed.
type Removed struct {
	Entry   string
	Bytes   int64
	LastUse time.Time
}

// Report says what one collection did.
type Report struct {
	At time.Time
	// Before and After are the store's size around the collection; Cap the target.
	Before, After, Cap int64
	// Leases are the live processes' leases; Leased the entries they hold.
	Leases, Leased int
	// DeadLeases, Temps and Locks count what crashed or killed runs left behind.
	DeadLeases, Temps, Locks int
	Removed                  []Removed
}

// String is the report on one line.
func (r Report) String() string {
	return fmt.Sprintf("%d MiB -> %d MiB (cap %d MiB): %d entries removed, %d leased by %d live processes; %d dead leases, %d half-written folders, %d stale locks removed",
		r.Before>>20, r.After>>20, r.Cap>>20, len(r.Removed), r.Leased, r.Leases, r.DeadLeases, r.Temps, r.Locks)
}

// live is what the live processes hold.
type live struct {
	ids     map[string]bool
	entries map[string]bool
}

// Collect removes what crashed runs left (dead leases, their tmp folders, stale build locks
// and half-written builds), then entries no live process leases, least recently used first,
// until the store is under its cap. It never removes a leased entry.
func (s *Store) Collect() (Report, error) {
	s.colMu.Lock()
	defer s.colMu.Unlock()
	unlock, err := s.lock(syscall.LOCK_EX)
	if err != nil {
		return Report{}, err
	}
	defer unlock()
	rep := Report{At: time.Now(), Cap: s.capBytes()}
	lv, err := s.leases(&rep)
	if err != nil {
		return rep, err
	}
	s.sweep(lv, &rep)
	rep.Before = s.usage()
	total := rep.Before
	type cand struct {
		entry string
		bytes int64
		used  time.Time
	}
	var cands []cand
	if total > rep.Cap {
		for _, kind := range Kinds {
			ents, _ := os.ReadDir(filepath.Join(s.Dir, kind))
			for _, e := range ents {
				name := e.Name()
				entry := Entry(kind, name)
				if strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".lock") || lv.entries[entry] {
					continue
				}
				info, err := os.Lstat(filepath.Join(s.Dir, kind, name))
				if err != nil {
					continue
				}
				cands = append(cands, cand{entry, size(filepath.Join(s.Dir, kind, name)), info.ModTime()})
			}
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return a.used.Compare(b.used) })
	for _, c := range cands {
		if total <= rep.Cap {
			break
		}
		if err := s.remove(c.entry); err != nil {
			s.logf("collect: remove %s: %v", c.entry, err)
			continue
		}
		total -= c.bytes
		rep.Removed = append(rep.Removed, Removed{Entry: c.entry, Bytes: c.bytes, LastUse: c.used})
		s.logf("removed %s (%d KiB, last used %s ago): not leased by any live run, store over its cap of %d MiB",
			c.entry, c.bytes>>10, rep.At.Sub(c.used).Round(time.Second), rep.Cap>>20)
	}
	rep.After = s.usage()
	if len(rep.Removed) > 0 || rep.DeadLeases+rep.Temps+rep.Locks > 0 {
		s.logf("collected: %s", rep)
	}
	return rep, nil
}

// Exclusive runs f with the store's collect lock held exclusively and leased, the folders
// outside the store that live processes lease (UseOutside): f may remove any other.
func (s *Store) Exclusive(f func(leased func(dir string) bool) error) error {
	s.colMu.Lock()
	defer s.colMu.Unlock()
	unlock, err := s.lock(syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer unlock()
	var rep Report
	lv, err := s.leases(&rep)
	if err != nil {
		return err
	}
	return f(func(dir string) bool {
		abs, err := filepath.Abs(dir)
		return err != nil || lv.entries[outside+abs]
	})
}

// leases reads the live leases and removes the dead ones (their lock can be taken: the
// kernel dropped it when the process ended, however it ended).
func (s *Store) leases(rep *Report) (live, error) {
	lv := live{ids: map[string]bool{}, entries: map[string]bool{}}
	dir := filepath.Join(s.Dir, LeasesDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return lv, fmt.Errorf("files store: read the leases: %w", err)
	}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			os.Remove(p) // a dead process's
			f.Close()
			rep.DeadLeases++
			continue
		}
		lv.ids[e.Name()] = true
		rep.Leases++
		sc := bufio.NewScanner(io.LimitReader(f, 64<<20))
		for sc.Scan() {
			lv.entries[sc.Text()] = true
		}
		f.Close()
	}
	for e := range lv.entries {
		if !strings.HasPrefix(e, outside) {
			rep.Leased++
		}
	}
	return lv, nil
}

// sweep removes what dead processes were writing: their tmp folders, build locks nobody holds
// (with the half-written build beside one, left by an older arena), and the temporary folders
// older arenas left at the root.
func (s *Store) sweep(lv live, rep *Report) {
	tmp := filepath.Join(s.Dir, TmpDir)
	ents, _ := os.ReadDir(tmp)
	for _, e := range ents {
		id, _, _ := strings.Cut(e.Name(), ".")
		if !lv.ids[id] {
			if os.RemoveAll(filepath.Join(tmp, e.Name())) == nil {
				rep.Temps++
				s.logf("removed tmp/%s: its process is gone", e.Name())
			}
		}
	}
	locks, _ := filepath.Glob(filepath.Join(s.Dir, "art", "*.lock"))
	for _, l := range locks {
		f, err := os.OpenFile(l, os.O_RDWR, 0)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			half := strings.TrimSuffix(l, ".lock") + ".tmp"
			if _, err := os.Lstat(half); err == nil {
				os.RemoveAll(half)
				rep.Temps++
			}
			os.Remove(l)
			rep.Locks++
		}
		f.Close()
	}
	old, _ := filepath.Glob(filepath.Join(s.Dir, ".snap-*"))
	more, _ := filepath.Glob(filepath.Join(s.Dir, "upload-in-*"))
	for _, p := range append(old, more...) {
		if st, err := os.Lstat(p); err == nil && time.Since(st.ModTime()) > legacyAge {
			if os.RemoveAll(p) == nil {
				rep.Temps++
			}
		}
	}
}

// remove takes an entry out of its folder at once (a rename into this process's tmp), then
// deletes it: nobody ever sees half of an entry.
func (s *Store) remove(entry string) error {
	gone := filepath.Join(s.Dir, TmpDir, s.id+".gone."+random())
	if err := os.Rename(s.Path(entry), gone); err != nil {
		return err
	}
	if err := os.RemoveAll(gone); err != nil {
		// A read-only folder of a build: open it up and try again.
		_ = filepath.WalkDir(gone, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(p, 0o700)
			}
			return nil
		})
		return os.RemoveAll(gone)
	}
	return nil
}

// usage is the store's size: the tmpfs's use where the store is a mount of its own, else
// the allocated size of everything below its root.
func (s *Store) usage() int64 {
	if mountRoot(s.Dir) {
		var st syscall.Statfs_t
		if syscall.Statfs(s.Dir, &st) == nil {
			return int64(st.Blocks-st.Bfree) * int64(st.Bsize)
		}
	}
	return size(s.Dir)
}

// Usage is the store's size in bytes.
func (s *Store) Usage() int64 { return s.usage() }

// size is the allocated size of a folder's files and folders.
func size(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if info, err := d.Info(); err == nil {
			if st, ok := info.Sys().(*syscall.Stat_t); ok {
				n += st.Blocks * 512
			} else {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

// mountRoot reports whether dir is the root of a mount (its device differs from its parent's).
func mountRoot(dir string) bool {
	a, err1 := os.Stat(dir)
	b, err2 := os.Stat(filepath.Dir(dir))
	if err1 != nil || err2 != nil {
		return false
	}
	sa, ok1 := a.Sys().(*syscall.Stat_t)
	sb, ok2 := b.Sys().(*syscall.Stat_t)
	return ok1 && ok2 && sa.Dev != sb.Dev
}

// logf appends a line to collect.log (and Log).
func (s *Store) logf(format string, args ...any) {
	line := time.Now().UTC().Format(time.RFC3339) + " pid " + fmt.Sprint(os.Getpid()) + ": " + fmt.Sprintf(format, args...)
	if s.Log != nil {
		s.Log(line)
	}
	p := filepath.Join(s.Dir, LogName)
	if st, err := os.Stat(p); err == nil && st.Size() > logMax {
		_ = os.Rename(p, p+".1")
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line + "\n")
	f.Close()
}

func random() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
