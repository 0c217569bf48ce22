//go:build !linux || arenadegraded

package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"
)

// Off Linux (macOS, the BSDs) the sandbox is the degraded one: a clean environment, rlimits set
// by a tiny init (this binary re-executed) before it execs the bot, the bot's own process
// group, a kill of the whole group, wall-time and output limits. Probe reports every Linux
// layer as missing, with the reason, and Strict refuses to start.

// Init runs the init when the binary was re-executed as one; see the Linux version.
func Init() {
	if filepath.Base(os.Args[0]) != initArg0 {
		return
	}
	os.Exit(runOtherInit())
}

func init() { Init() }

// otherConfig is what the init needs here.
type otherConfig struct {
	Path string
	Args []string
	Env  []string
	Dir  string
	L    Limits
	// Pass is how many descriptors, from passFD on, the program inherits at 3, 4, ...
	Pass int
}

// passFD is where the init inherits Spec.Files (after the config at 3 and its copy at 4).
const passFD = 5

func runOtherInit() int {
	f := os.NewFile(configFD, "config")
	var cfg otherConfig
	if err := json.NewDecoder(f).Decode(&cfg); err != nil {
		return 124
	}
	_ = f.Close()
	// The program gets Spec.Files at 3, 4, ... and nothing else of the init's.
	_ = syscall.Close(configFD + 1)
	for i := range cfg.Pass {
		if err := syscall.Dup2(passFD+i, 3+i); err != nil {
			fmt.Fprintf(os.Stderr, "sandbox: cannot pass descriptor %d: %v\n", 3+i, err)
			return 127
		}
	}
	for i := range cfg.Pass {
		if passFD+i >= 3+cfg.Pass {
			_ = syscall.Close(passFD + i)
		}
	}
	set := func(res int, v uint64) {
		if v > 0 {
			_ = syscall.Setrlimit(res, &syscall.Rlimit{Cur: v, Max: v})
		}
	}
	set(syscall.RLIMIT_CORE, 0)
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	set(syscall.RLIMIT_CPU, uint64(cfg.L.CPUSeconds))
	set(syscall.RLIMIT_FSIZE, uint64(cfg.L.FileBytes))
	set(syscall.RLIMIT_NOFILE, uint64(cfg.L.OpenFiles))
	if cfg.Dir != "" {
		_ = os.Chdir(cfg.Dir)
	}
	err := syscall.Exec(cfg.Path, cfg.Args, cfg.Env)
	fmt.Fprintf(os.Stderr, "sandbox: cannot start %s: %v\n", cfg.Path, err)
	return 127
}

// Process is a running command in the degraded sandbox.
type Process struct {
	spec   Spec
	limits Limits
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr io.ReadCloser

	started time.Time
	done    chan struct{}
	waitErr error

	mu     sync.Mutex
	reason *ExitReason
	ended  time.Time
	final  Usage
}

// Start launches spec in the degraded sandbox.
func Start(spec Spec) (*Process, error) {
	if spec.Strict {
		return nil, fmt.Errorf("%w %s: strict mode refuses to run without the Linux layers (this is %s)", ErrStrict, spec.Name, runtime.GOOS)
	}
	if len(spec.Overlays) > 0 {
		return nil, fmt.Errorf("%w: overlays need Linux", ErrNoOverlay)
	}
	spec = hostPaths(spec)
	if rt, err := pythonFor(spec); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	} else if rt != nil {
		spec.Path = rt.Exe
		if len(spec.Args) > 0 {
			spec.Args = append([]string{rt.Exe}, spec.Args[1:]...)
		}
	}
	l := spec.Limits.withDefaults()
	args := spec.Args
	if len(args) == 0 {
		args = []string{spec.Path}
	}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	cmd := &exec.Cmd{Path: exe, Args: []string{initArg0}, Env: []string{}, ExtraFiles: append([]*os.File{cfgR, cfgR}, spec.Files...),
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
	p := &Process{spec: spec, limits: l, cmd: cmd, done: make(chan struct{})}
	// Plain pipes, not cmd.StdoutPipe: Wait (in waiter) closes those as soon as the process
	// exits, and the reader lost whatever the bot wrote last (seen as a missing last line).
	// These read ends stay open until their reader reaches EOF.
	outW, errW, err := p.pipes()
	if err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	dir := spec.Dir
	if dir == "" {
		dir = spec.WorkDir
	}
	err = cmd.Start()
	_, _ = outW.Close(), errW.Close() // the child holds its own copies
	if err != nil {
		_, _ = p.stdout.Close(), p.stderr.Close()
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	_ = cfgR.Close()
	_ = json.NewEncoder(cfgW).Encode(otherConfig{Path: spec.Path, Args: args, Env: spec.Env, Dir: dir, L: l, Pass: len(spec.Files)})
	_ = cfgW.Close()
	p.started = time.Now()
	go p.waiter()
	if l.WallTime > 0 {
		go func() {
			select {
			case <-p.done:
			case <-time.After(l.WallTime):
				_ = p.KillFor(KindTimeLimit, "ran longer than "+l.WallTime.String())
			}
		}()
	}
	return p, nil
}

// pipes makes the process's stdout and stderr pipes: it reads the first ends, the child
// writes the returned ones.
func (p *Process) pipes() (outW, errW *os.File, err error) {
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		_, _ = outR.Close(), outW.Close()
		return nil, nil, err
	}
	p.stdout, p.stderr = &pipeReader{f: outR}, &pipeReader{f: errR}
	return outW, errW, nil
}

// pipeReader closes its pipe at EOF, and reads from a pipe closed under it (a reader that never
// finished, see waiter) end as EOF, as on Linux.
type pipeReader struct {
	f    *os.File
	once sync.Once
}

func (r *pipeReader) Read(b []byte) (int, error) {
	n, err := r.f.Read(b)
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		_ = r.Close()
		if errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
	}
	return n, err
}

func (r *pipeReader) Close() error {
	r.once.Do(func() { _ = r.f.Close() })
	return nil
}

func (p *Process) waiter() {
	err := p.cmd.Wait()
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	p.mu.Lock()
	p.ended = time.Now()
	p.final = Usage{Wall: p.ended.Sub(p.started)}
	if ps := p.cmd.ProcessState; ps != nil {
		p.final.CPU = ps.UserTime() + ps.SystemTime()
	}
	p.mu.Unlock()
	if r := p.Reason(); r.Kind != KindExited || r.Status != 0 || err != nil {
		p.waitErr = &ExitError{Name: p.spec.Name, Reason: r}
	}
	if p.spec.Harvest != nil && p.spec.WorkDir != "" {
		p.spec.Harvest(p.spec.WorkDir)
	}
	close(p.done)
	// Readers still get what is buffered in the pipes; close them if nobody finishes.
	time.AfterFunc(2*time.Second, func() { _, _ = p.stdout.Close(), p.stderr.Close() })
}

// Pid of the process (its group leader).
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// BotPid is the program's pid.
func (p *Process) BotPid() int { return p.cmd.Process.Pid }

// Stdout of the process.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Stderr of the process.
func (p *Process) Stderr() io.Reader { return p.stderr }

// StdoutUnread is how many bytes wait unread in the stdout pipe (see the Linux version).
func (p *Process) StdoutUnread() int { return unreadIn(p.stdout) }

// StderrUnread is the same for stderr.
func (p *Process) StderrUnread() int { return unreadIn(p.stderr) }

// StderrDeadline sets the read deadline of the stderr pipe (see the Linux version).
func (p *Process) StderrDeadline(t time.Time) error {
	if pr, ok := p.stderr.(*pipeReader); ok {
		return pr.f.SetReadDeadline(t)
	}
	return os.ErrNoDeadline
}

func unreadIn(r io.Reader) int {
	if pr, ok := r.(*pipeReader); ok {
		return pipeUnread(pr.f)
	}
	return 0
}

// Done is closed once the process is gone.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the end; nil for a clean exit.
func (p *Process) Wait() error {
	<-p.done
	return p.waitErr
}

// Kill kills the whole process group.
func (p *Process) Kill() error { return p.KillFor(KindKilled, "stopped by the arena") }

// KillFor kills the group and records why.
func (p *Process) KillFor(kind, detail string) error {
	p.mu.Lock()
	if p.reason == nil && p.ended.IsZero() {
		p.reason = &ExitReason{Kind: kind, Detail: detail}
	}
	p.mu.Unlock()
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-p.done:
		return nil
	case <-time.After(3 * time.Second):
		return errors.New("sandbox " + p.spec.Name + ": process still not gone 3s after kill")
	}
}

// Reason explains how the process ended.
func (p *Process) Reason() ExitReason {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended.IsZero() {
		return ExitReason{Kind: KindRunning}
	}
	if p.reason != nil {
		return *p.reason
	}
	ps := p.cmd.ProcessState
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ExitReason{Kind: KindSignal, Signal: ws.Signal()}
	}
	return ExitReason{Kind: KindExited, Status: ps.ExitCode()}
}

// Usage reports wall and CPU time (final after the end).
func (p *Process) Usage() Usage {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.ended.IsZero() {
		return p.final
	}
	return Usage{Wall: time.Since(p.started)}
}

// Snapshot is a reading for diffing around a move; off Linux only the time is known.
func (p *Process) Snapshot() Snapshot { return Snapshot{At: time.Now()} }

// CPUTime is not measured here: there are no cgroups.
func (p *Process) CPUTime() (time.Duration, bool) { return 0, false }

// TreeCPUTime: no cgroup counts the tree's CPU time here.
func (p *Process) TreeCPUTime() (time.Duration, bool) { return 0, false }

// CountsCPU is false here: there are no cgroups.
func (p *Process) CountsCPU() bool { return false }

// Limits in force.
func (p *Process) Limits() Limits { return p.limits }

// HostUID is -1: the bot runs as the arena's uid.
func (p *Process) HostUID() int { return -1 }

// UIDRange is empty: no uids are handed out here.
func UIDRange() (lo, hi int) { return 0, 0 }

// Probe reports the degraded sandbox.
func Probe() *Report {
	r := &Report{}
	why := "not available on " + runtime.GOOS + " (Linux only)"
	for _, n := range layerOrder {
		r.set(n, false, "%s", why)
	}
	r.set(LayerEnv, true, "only the variables the caller passes")
	r.set(LayerRlimits, true, "core 0, cpu seconds, file size, open files (set by the init before it starts the bot)")
	r.set(LayerSubreaper, true, "the bot's own process group, killed as a whole; a wall-time limit (no output limit here)")
	r.Notes = append(r.Notes, "degraded sandbox: bots see the host's files and network; run contests on Linux")
	return r
}

// CleanupReport says what Cleanup removed; nothing is left behind here.
type CleanupReport struct{ Cgroups, Mounts, WorkDirs, Killed int }

func (c CleanupReport) String() string { return "nothing to clean up off Linux" }

// Cleanup has nothing to do off Linux.
func Cleanup() (CleanupReport, error) { return CleanupReport{}, nil }

// FilesDir is a plain folder off Linux.
func FilesDir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("arena-sandbox-%d", os.Geteuid()), "files")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return dir, err
	}
	return dir, os.Chmod(dir, 0o700) // private: no other local user reads a submission
}

// OverlaysWork is false off Linux.
func OverlaysWork() bool { return false }

// WorkPathInside is the work dir's host path: nothing can be moved off Linux.
func WorkPathInside(spec Spec) string { return spec.WorkDir }

// CPUParts is the CPU time of the init and the main program (see the Linux version).
type CPUParts struct {
	Init, Main time.Duration
	Front      bool
}

// CPUParts: no process CPU clocks are read here.
func (p *Process) CPUParts() (CPUParts, bool) { return CPUParts{}, false }
