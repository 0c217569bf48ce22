package build

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/sandbox"
)

// Options for every build step.
type Options struct {
	// Limits of a build's sandbox; zero fields take DefaultLimits.
	Limits sandbox.Limits
	// Network lets build steps reach the network (a package index); off by default.
	Network bool
	// CGO turns cgo on for Go builds (still sandboxed); off by default.
	CGO bool
	// Wheels is a folder of Python wheels that requirements.txt installs from.
	Wheels string
	// Strict refuses to build when a sandbox layer is missing.
	Strict bool
	// Cache holds the warmed compiler caches; default <user cache>/arena/build.
	Cache string
	// OutputQuota bounds what one build of a submission may add to the files store (its
	// output, measured before it is copied in); 0 takes DefaultOutputQuota, below 0 none (the
	// arena's own builds).
	OutputQuota int64
	// Stop, when set, ends a build as soon as it is done: the step running is killed with its
	// whole process tree and fails with ErrStopped (arena play's Ctrl-C or SIGTERM must not wait
	// for a compile of up to an hour). Nil: builds run to their own end.
	Stop context.Context
	// Log, when set, hears of the one-time steps that take long on a fresh machine (fetching
	// the Go kit's modules, warming the compiler cache), so a first run is not silent.
	Log io.Writer
}

// DefaultOutputQuota is what one build may add to the files store: room for a bot with its
// dependencies and data, the size a submission's own files may have.
const DefaultOutputQuota = 256 << 20

// DefaultLimits bound a build: room for compiling a gRPC bot, seconds for a bomb to hit them.
func DefaultLimits() sandbox.Limits {
	return sandbox.Limits{MemoryBytes: 2 << 30, Processes: 512, CPUSeconds: 600, CPUs: 2,
		OutputBytes: 8 << 20, FileBytes: 1 << 30, DiskBytes: 2 << 30, OpenFiles: 4096, WallTime: 10 * time.Minute}
}

// WithDefaults fills the zero limits.
func (o Options) WithDefaults() Options {
	d, l := DefaultLimits(), &o.Limits
	fill(&l.MemoryBytes, d.MemoryBytes)
	fill(&l.Processes, d.Processes)
	fill(&l.CPUSeconds, d.CPUSeconds)
	fill(&l.CPUs, d.CPUs)
	fill(&l.OutputBytes, d.OutputBytes)
	fill(&l.FileBytes, d.FileBytes)
	fill(&l.DiskBytes, d.DiskBytes)
	fill(&l.OpenFiles, d.OpenFiles)
	fill(&l.WallTime, d.WallTime)
	fill(&o.OutputQuota, DefaultOutputQuota)
	if o.Cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			base = os.TempDir()
		}
		o.Cache = filepath.Join(base, "arena", "build")
	}
	return o
}

// fill sets *v to def when it is zero.
func fill[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// Error is a failed build: the bot's verdict, with the last lines of the build's output.
type Error struct {
	Bot    string
	Step   string // "go build", "pip install"
	Reason string // how the step ended (exit status, memory limit...)
	Tail   []string
	// Err is the sandbox's refusal to start the step (sandbox.ErrStart, ErrStrict): not the
	// bot's doing, whatever Is says (botspec.Classify looks at it first).
	Err error
}

// ErrBuild is what every *Error matches with errors.Is.
var ErrBuild = errors.New("build failed")

func (e *Error) Error() string {
	msg := fmt.Sprintf("build failed: %s of %s: %s", e.Step, e.Bot, e.Reason)
	if len(e.Tail) > 0 {
		msg += "\n  last lines of the build:\n    " + strings.Join(e.Tail, "\n    ")
	}
	return msg
}

// Is makes errors.Is(err, ErrBuild) hold.
func (e *Error) Is(target error) bool { return target == ErrBuild }

// Unwrap gives the sandbox's refusal, if that is how the step failed.
func (e *Error) Unwrap() error { return e.Err }

// Artefact is a built result in the files store, named by its key.
type Artefact struct {
	Key string
	Dir string
}

// step is one sandboxed build command.
type step struct {
	name    string // for reports: "go build"
	bot     string
	path    string
	args    []string
	env     []string
	view    []string // read-only at their own paths (toolchain, caches)
	mounts  []sandbox.Mount
	overlay []sandbox.Overlay
	// out is what to keep from the work dir (relative), copied into the artefact dir.
	out string
}

// buildAt is where a build's work dir appears inside its sandbox.
const buildAt = "/run/build"

// run runs a step in a sandbox and, when it succeeds, copies its out folder to dst.
func (s step) run(o Options, dst string) error {
	work, err := os.MkdirTemp("", "arena-build-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	for _, d := range []string{"tmp", "out"} {
		if err := os.Mkdir(filepath.Join(work, d), 0o755); err != nil {
			return err
		}
	}
	var harvestErr error
	harvested := false
	spec := sandbox.Spec{
		Name: s.name + " " + s.bot, Path: s.path, Args: append([]string{s.path}, s.args...),
		Env: append([]string{"HOME=" + buildAt + "/tmp", "TMPDIR=" + buildAt + "/tmp"}, s.env...),
		Dir: buildAt, ReadOnly: s.view, Mounts: s.mounts, Overlays: s.overlay,
		WorkDir: work, WorkAt: buildAt, WorkExec: true, Limits: o.Limits, Network: o.Network, Strict: o.Strict,
	}
	if sandbox.WorkPathInside(spec) != buildAt {
		// Without a mount namespace the work dir keeps its host path: name that instead.
		for i, e := range spec.Env {
			spec.Env[i] = strings.ReplaceAll(e, buildAt, work)
		}
		for i, a := range spec.Args {
			spec.Args[i] = strings.ReplaceAll(a, buildAt, work)
		}
		spec.Dir = work
	}
	var overQuota int64
	spec.Harvest = func(dir string) {
		harvested = true
		out := filepath.Join(dir, s.out)
		// Measured before a byte of it enters the files store (memory shared by every run).
		if n := treeSize(out); o.OutputQuota > 0 && n > o.OutputQuota {
			overQuota = n
			return
		}
		harvestErr = copyTree(out, dst, o.OutputQuota)
	}
	if err := o.stopped(); err != nil {
		return err
	}
	p, err := sandbox.Start(spec)
	if err != nil {
		return &Error{Bot: s.bot, Step: s.name, Reason: err.Error(), Err: err}
	}
	if o.Stop != nil {
		defer context.AfterFunc(o.Stop, func() { _ = p.Kill() })()
	}
	log := newTail(32 << 10)
	var wg sync.WaitGroup
	wg.Add(2)
	for _, r := range []io.Reader{p.Stdout(), p.Stderr()} {
		go func() { defer wg.Done(); _, _ = io.Copy(log, r) }()
	}
	werr := p.Wait()
	wg.Wait()
	if err := o.stopped(); err != nil {
		_ = os.RemoveAll(dst)
		return fmt.Errorf("%s of %s: %w", s.name, s.bot, err)
	}
	if werr != nil {
		_ = os.RemoveAll(dst)
		return &Error{Bot: s.bot, Step: s.name, Reason: p.Reason().String(), Tail: log.lines(30)}
	}
	if overQuota > 0 {
		_ = os.RemoveAll(dst)
		return &Error{Bot: s.bot, Step: s.name, Tail: log.lines(30), Reason: fmt.Sprintf(
			"its output is %d MiB, more than the per-submission quota of %d MiB: leave build caches, dependencies and data the bot does not need out of the output (or the organiser raises --build-output)",
			(overQuota+1<<20-1)>>20, o.OutputQuota>>20)}
	}
	if !harvested || harvestErr != nil {
		_ = os.RemoveAll(dst)
		return &Error{Bot: s.bot, Step: s.name, Reason: fmt.Sprintf("its result could not be collected: %v", harvestErr), Tail: log.lines(30)}
	}
	return nil
}

// ErrStopped means a build was stopped by its caller (Options.Stop) before it ended.
var ErrStopped = errors.New("the build was stopped before it ended")

// stopped is ErrStopped once o.Stop is done, else nil.
func (o Options) stopped() error {
	if o.Stop != nil && o.Stop.Err() != nil {
		return fmt.Errorf("%w (%v)", ErrStopped, context.Cause(o.Stop))
	}
	return nil
}

// treeSize is the size of the regular files below dir.
func treeSize(dir string) int64 {
	var n int64
	_ = filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
		return nil
	})
	return n
}

// errQuota is a build's output that grew past its quota while it was copied.
var errQuota = errors.New("the build's output grew past its quota while it was copied")

// copyTree copies the regular files and folders of src (a build's output, written by the
// sandboxed uid) to dst, owned by the arena, read-only, judged by the files policy: a device,
// named pipe or socket fails the build naming it. Symbolic links are left out, the one thing
// a build's output holds that a submission may not: package managers write them (npm's
// node_modules/.bin), a bot never runs through them, and followed they could reach outside.
// Its files may hold at most quota bytes (no bound: quota <= 0).
func copyTree(src, dst string, quota int64) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	t := filepolicy.Policy{Bytes: max(quota, 0)}.Tally()
	links := func(_ string, d fs.DirEntry) bool { return d.Type()&fs.ModeSymlink != 0 }
	err := t.Walk(src, links, func(e filepolicy.Entry) error {
		target := filepath.Join(dst, filepath.FromSlash(e.Rel))
		if e.Info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		// What was judged is copied: the build's processes have ended, and a file that still
		// grew could not take the output past its quota.
		return e.CopyTo(target, e.Info.Size())
	})
	if errors.Is(err, filepolicy.ErrTooBig) {
		return errQuota
	}
	return err
}

// cached returns store/art/<key>, leased by this process for its life (arena/filestore), when
// it exists; otherwise it builds it with make, at most once at a time per key across arena
// processes (a file lock), into a folder of this process's lease that is renamed into place
// only when complete (a killed build leaves nothing the next start does not remove).
func cached(store, key string, make func(dst string) error) (Artefact, error) {
	fs, err := filestore.Open(store)
	if err != nil {
		return Artefact{}, err
	}
	entry := filestore.Entry("art", key)
	a := Artefact{Key: key, Dir: fs.Path(entry)}
	if ok, err := fs.Use(entry); ok || err != nil {
		return a, err
	}
	unlock, err := lock(filepath.Join(store, "art", key+".lock"))
	if err != nil {
		return a, err
	}
	defer unlock()
	if _, err := os.Stat(a.Dir); err == nil {
		return a, nil
	}
	tmp, err := fs.Temp("art")
	if err != nil {
		return a, err
	}
	if err := make(tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return a, err
	}
	return a, fs.Put(tmp, entry)
}

// lock takes an exclusive file lock, freed by the kernel however the process ends.
func lock(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = f.Close() }, nil
}

// key hashes the parts of a recipe into an artefact key.
func key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%q\n", p)
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// tail keeps the last bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func newTail(max int) *tail { return &tail{max: max} }

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > 2*t.max {
		t.buf = append([]byte(nil), t.buf[len(t.buf)-t.max:]...)
	}
	return len(b), nil
}

func (t *tail) lines(n int) []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	b := t.buf
	if len(b) > t.max {
		b = b[len(b)-t.max:]
	}
	ls := strings.Split(strings.TrimRight(string(bytes.ToValidUTF8(b, []byte("?"))), "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	if len(ls) == 1 && ls[0] == "" {
		return nil
	}
	return ls
}

// tryLock takes the lock only when nobody holds it.
func tryLock(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = f.Close(); _ = os.Remove(path) }, nil
}
