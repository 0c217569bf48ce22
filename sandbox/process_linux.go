//go:build !arenadegraded

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// Process is a running sandboxed command: the root of its tree is the sandbox's init.
type Process struct {
	spec   Spec
	limits Limits
	plan   *plan
	run    *initRunner
	cg     *cgroup
	slot   *uidSlot
	undo   func() // unmount the work dir

	stdout, stderr *outReader
	out            atomic.Int64

	started time.Time
	botPid  int
	front   *frontClock // where Spec.Front: the main program's CPU clock
	// mainClock is the main program's process CPU clock, found once by CPUParts.
	mainOnce  sync.Once
	mainClock int32
	landlock  int

	done    chan struct{}
	waitErr error

	mu     sync.Mutex
	reason *ExitReason // set by Kill or a limit before the end
	exit   *initEvent
	final  Usage
	ended  time.Time
}

// Start launches spec in a sandbox built from every layer Probe found. The caller must read
// Stdout and Stderr and eventually call Kill or Wait.
func Start(spec Spec) (*Process, error) {
	if spec.Unconfined {
		return startWith(getPlan().bare(false), spec)
	}
	return startWith(getPlan(), spec)
}

func startWith(pl *plan, spec Spec) (*Process, error) {
	if spec.Strict {
		if miss := pl.report.Missing(); len(miss) > 0 {
			names := make([]string, len(miss))
			for i, m := range miss {
				names[i] = fmt.Sprintf("%s (%s)", m.Name, m.Detail)
			}
			return nil, fmt.Errorf("%w %s: strict mode refuses to run without: %s", ErrStrict, spec.Name, strings.Join(names, "; "))
		}
	}
	if pl.state == "" {
		return nil, fmt.Errorf("%w %s: %s", ErrStart, spec.Name, pl.report.Layers[1].Detail)
	}
	l := spec.Limits.withDefaults()
	if !pl.mountns {
		spec = hostPaths(spec)
	}
	if rt, err := pythonFor(spec); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	} else if rt != nil {
		spec.Path = rt.Exe
		if len(spec.Args) > 0 {
			spec.Args = append([]string{rt.Exe}, spec.Args[1:]...)
		}
		spec.ReadOnly = append(append([]string{}, spec.ReadOnly...), rt.ReadOnly...)
	}
	p := &Process{spec: spec, limits: l, plan: pl, done: make(chan struct{})}
	fail := func(err error) (*Process, error) {
		p.cleanup()
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	cfg, err := pl.config(spec, l, nil)
	if err != nil {
		return fail(err)
	}
	if pl.root {
		if p.slot, err = takeSlot(pl.state); err != nil {
			return fail(err)
		}
		pl.uids(cfg, p.slot)
	}
	name := fmt.Sprintf("p%d-%d", os.Getpid(), seq.Add(1))
	if len(pl.cg.base) > 0 {
		if p.cg, err = pl.cg.newCgroup(owner(), name, l); err != nil {
			return fail(err)
		}
	}
	if pl.workTmpfs && spec.WorkDir != "" && p.slot != nil {
		uid := p.slot.botUID()
		if p.undo, err = mountWork(pl.state, spec.WorkDir, name, uid, uid, l.DiskBytes, spec.WorkExec); err != nil {
			return fail(err)
		}
	}
	if len(spec.Overlays) > 0 {
		if p.undo == nil {
			return fail(fmt.Errorf("%w: a private writable layer over %s needs root and the work-dir tmpfs", ErrNoOverlay, spec.Overlays[0].Lower))
		}
		if err := mountOverlays(spec.WorkDir, spec.Overlays, p.slot.botUID()); err != nil {
			return fail(err)
		}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		_ = outR.Close()
		_ = outW.Close()
		return fail(err)
	}
	p.stdout, p.stderr = &outReader{f: outR, p: p}, &outReader{f: errR, p: p}
	p.started = time.Now()
	run, err := pl.startInit(cfg, p.slot, p.cg, outW, errW, spec.Files)
	_ = outW.Close()
	_ = errW.Close()
	if err != nil {
		p.stdout.close()
		p.stderr.close()
		return fail(err)
	}
	p.run = run
	ev := run.next(startTimeout)
	if ev.Event != "started" {
		p.killTree()
		_ = run.cmd.Wait()
		p.stdout.close()
		p.stderr.close()
		msg := "the sandbox init ended before starting the program"
		if ev.Event == "error" {
			msg = ev.Step + ": " + ev.Error
		}
		return fail(errors.New(msg))
	}
	p.botPid, p.landlock = ev.Pid, ev.Landlock
	if spec.Front && p.CountsCPU() {
		// Not found: it has already ended (a program that fails at once takes its bridge with
		// it), and the tree with it; nothing is left to leave out.
		p.front = newFrontClock(run.cmd.Process.Pid, p.botPid)
	}
	go p.waiter()
	go p.watch()
	return p, nil
}

var seq atomic.Int64

// Pid of the sandbox's root process (its init): the whole tree hangs below it.
func (p *Process) Pid() int { return p.run.cmd.Process.Pid }

// Stdout of the process. It reaches EOF when every process of the tree has closed it.
func (p *Process) Stdout() io.Reader { return p.stdout }

// StdoutUnread is how many bytes the tree has written to its stdout that the host has not read
// yet: a clock must not count the host's lateness in reading them as the bot's own waiting.
func (p *Process) StdoutUnread() int { return pipeUnread(p.stdout.f) }

// StderrUnread is the same for stderr: what a reader of the bot's last words has yet to read.
func (p *Process) StderrUnread() int { return pipeUnread(p.stderr.f) }

// StderrDeadline sets the read deadline of the stderr pipe: a read waiting at t returns
// os.ErrDeadlineExceeded (the pipe stays open), so that its reader can look up from it.
func (p *Process) StderrDeadline(t time.Time) error { return p.stderr.f.SetReadDeadline(t) }

// Stderr of the process.
func (p *Process) Stderr() io.Reader { return p.stderr }

// Done is closed once the process tree is gone and measured.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits until the whole tree is gone. It returns nil for a clean exit (status 0) and an
// error carrying the ExitReason otherwise.
func (p *Process) Wait() error {
	<-p.done
	return p.waitErr
}

// waiter reaps the init, takes the final measurements and releases everything.
func (p *Process) waiter() {
	_ = p.run.cmd.Wait()
	// The status pipe ends with the init (the bot never holds it).
	var exit *initEvent
	select {
	case <-p.run.eof:
		exit = p.run.exit
	case <-time.After(time.Second):
	}
	// A tree without a PID namespace may outlive its init: make sure it does not.
	if !p.plan.pidns {
		p.killTree()
	}
	u := p.measure()
	p.mu.Lock()
	p.exit = exit
	p.ended = time.Now()
	u.Wall = p.ended.Sub(p.started)
	if exit != nil && u.CPU == 0 {
		u.CPU = time.Duration(exit.UserUsec+exit.SysUsec) * time.Microsecond
	}
	if exit != nil && u.PeakBytes == 0 {
		u.PeakBytes = exit.MaxRSSKB * 1024
	}
	p.final = u
	p.mu.Unlock()
	if r := p.Reason(); r.Kind != KindExited || r.Status != 0 {
		p.waitErr = &ExitError{Name: p.spec.Name, Reason: r}
	}
	// The tree is gone: let the caller take its results, free the work dir (the caller may
	// remove it as soon as Wait returns), tell the waiters, then remove the cgroups, which can
	// take a little longer.
	if p.spec.Harvest != nil && p.spec.WorkDir != "" {
		p.spec.Harvest(p.spec.WorkDir)
	}
	if p.undo != nil {
		p.undo()
		p.undo = nil
	}
	close(p.done)
	p.cleanup()
	// Readers still get what is buffered in the pipes; close them if nobody finishes.
	time.AfterFunc(2*time.Second, func() {
		p.stdout.close()
		p.stderr.close()
	})
}

// measure reads the tree's totals while its cgroups still exist.
func (p *Process) measure() Usage {
	u := Usage{OutputBytes: p.out.Load()}
	if p.cg != nil {
		u.CPU, _ = p.cg.cpu()
		u.PeakBytes = p.cg.peak()
		u.OOMKills = p.cg.oomKills()
		u.ProcessLimitHits = p.cg.pidsHits()
	}
	return u
}

func (p *Process) cleanup() {
	if p.cg != nil {
		p.cg.remove()
	}
	if p.undo != nil {
		p.undo()
	}
	p.slot.release()
}

// killWait bounds how long KillFor waits for a killed tree's end: SIGKILL to a frozen cgroup
// is immediate, but reaping it on a machine beside four busy loops took over 3 s (CI23).
const killWait = 30 * time.Second

// Kill removes the whole process tree and returns once it is gone.
func (p *Process) Kill() error {
	return p.KillFor(KindKilled, "stopped by the arena")
}

// KillFor kills the tree and records why (a Kind constant and details), unless the process
// already ended or was already killed for another reason.
func (p *Process) KillFor(kind, detail string) error {
	p.mu.Lock()
	if p.reason == nil && p.exit == nil {
		p.reason = &ExitReason{Kind: kind, Detail: detail}
	}
	p.mu.Unlock()
	p.killTree()
	select {
	case <-p.done:
		return nil
	case <-time.After(killWait):
		return fmt.Errorf("sandbox %s: process tree still not gone %v after kill", p.spec.Name, killWait)
	}
}

// killTree sends SIGKILL to everything: the cgroup (frozen first), the init (whose death
// empties its PID namespace), and without a PID namespace the init's process group and its
// descendants, repeatedly until none is left.
func (p *Process) killTree() {
	p.cg.killAll()
	if p.run == nil || p.run.cmd == nil || p.run.cmd.Process == nil {
		return
	}
	pid := p.run.cmd.Process.Pid
	if p.plan.pidns {
		_ = syscall.Kill(pid, syscall.SIGKILL)
		return
	}
	// The init, a child subreaper, stays alive until its descendants are gone: orphans (a
	// child in a session of its own whose parent died) come back to it and are found by the
	// next round. Killing its process group first would kill the init too, and its orphans
	// would escape to the host's init.
	for i := 0; i < 50; i++ {
		live := 0
		for _, k := range descendants(pid) {
			if !zombie(k) {
				live++
				_ = syscall.Kill(k, syscall.SIGKILL)
			}
		}
		if live == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
}

// zombie reports whether pid has exited and waits to be reaped (or is gone).
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// Reason explains how the process ended; KindRunning before the end.
func (p *Process) Reason() ExitReason {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended.IsZero() {
		return ExitReason{Kind: KindRunning}
	}
	if p.reason != nil && p.reason.Kind != KindKilled {
		return *p.reason // a limit the sandbox enforced
	}
	u := p.final
	oom := ExitReason{Kind: KindMemoryLimit, Detail: fmt.Sprintf("%d process(es) killed for using more than %s",
		u.OOMKills, bytesText(p.limits.MemoryBytes))}
	ev := p.exit
	if ev == nil {
		// Killed before the main program ended on its own.
		switch {
		case p.reason != nil:
			return *p.reason
		case u.OOMKills > 0:
			return oom
		case u.ProcessLimitHits > 0:
			// The init shares the tree's process limit (its cgroup's pids.max): a fork or
			// thread bomb that fills it can leave the init's runtime without a thread it
			// needs (seen under heavy load, CI beside four busy loops, 3 December). That is
			// the bot's doing, and the author is told so.
			return ExitReason{Kind: KindProcessLimit, Detail: fmt.Sprintf("its processes and threads took all %d allowed (%d fork(s) refused), and the sandbox could not go on (%s)",
				p.limits.Processes, u.ProcessLimitHits, p.run.cmd.ProcessState.String())}
		}
		return ExitReason{Kind: KindSandbox, Detail: "the sandbox init died (" + p.run.cmd.ProcessState.String() + ")"}
	}
	if u.OOMKills > 0 && (ev.Signal != 0 || ev.Status != 0) {
		oom.Signal = syscall.Signal(ev.Signal)
		return oom
	}
	if ev.Signal == 0 {
		r := ExitReason{Kind: KindExited, Status: ev.Status}
		if ev.Status != 0 && u.ProcessLimitHits > 0 {
			r.Detail = fmt.Sprintf("after %d refused fork(s) at the process limit of %d", u.ProcessLimitHits, p.limits.Processes)
		}
		return r
	}
	sig := syscall.Signal(ev.Signal)
	switch {
	case sig == syscall.SIGSYS:
		return ExitReason{Kind: KindSyscall, Signal: sig, Detail: "killed by the seccomp filter"}
	case sig == syscall.SIGXCPU || (sig == syscall.SIGKILL && p.limits.CPUSeconds > 0 && u.CPU >= time.Duration(p.limits.CPUSeconds)*time.Second):
		return ExitReason{Kind: KindCPULimit, Signal: sig, Detail: fmt.Sprintf("used %v of CPU, limit %ds", u.CPU.Round(time.Millisecond), p.limits.CPUSeconds)}
	case sig == syscall.SIGXFSZ:
		return ExitReason{Kind: KindFileLimit, Signal: sig, Detail: "wrote a file larger than " + bytesText(p.limits.FileBytes)}
	}
	return ExitReason{Kind: KindSignal, Signal: sig}
}

// Usage reports the tree's wall time, CPU time and peak memory. After the end it is final;
// before, it is a live reading.
func (p *Process) Usage() Usage {
	p.mu.Lock()
	if !p.ended.IsZero() {
		u := p.final
		p.mu.Unlock()
		return u
	}
	p.mu.Unlock()
	u := p.measure()
	u.Wall = time.Since(p.started)
	if u.CPU == 0 {
		u.CPU = p.Snapshot().CPU
	}
	return u
}

// CPUTime is the bot's CPU time so far: the tree's as its cgroup counts it (one pread of a file
// kept open), less the main program's own where Spec.Front says it is the arena's (one
// clock_gettime more; never less than an earlier reading). ok is false when no cgroup measures
// it. A move clock polls it.
func (p *Process) CPUTime() (cpu time.Duration, ok bool) {
	if p.front == nil {
		return p.cg.cpu()
	}
	// The front first: what it uses between the two readings is counted as the bot's, never
	// the bot's as the front's.
	f, _ := p.front.read()
	c, ok := p.cg.cpu()
	if !ok {
		return 0, false
	}
	return p.front.charged(max(c-f, 0)), true
}

// TreeCPUTime is the tree's CPU time so far as its cgroup counts it, a Spec.Front program's
// included (whether the tree has done anything at all).
func (p *Process) TreeCPUTime() (time.Duration, bool) { return p.cg.cpu() }

// CountsCPU reports whether a cgroup counts the tree's CPU time (CPUTime can be read), without
// reading it: a move asks this before every move, and the reading is the costly part.
func (p *Process) CountsCPU() bool { return p.cg != nil && p.cg.cpuF != nil }

// Snapshot reads the bot's CPU time (as CPUTime counts it) and the tree's memory now; it costs
// a couple of small reads, so a host can take one before and after every move.
func (p *Process) Snapshot() Snapshot {
	s := Snapshot{At: time.Now()}
	if cpu, ok := p.CPUTime(); ok {
		s.CPU = cpu
		s.MemoryBytes = p.cg.memory()
		return s
	}
	select {
	case <-p.done:
		s.CPU = p.final.CPU
		return s
	default:
	}
	// No cgroup: add up /proc/<pid>/stat over the tree (reaped children included).
	pid := p.run.cmd.Process.Pid
	for _, q := range append([]int{pid}, descendants(pid)...) {
		s.CPU += procCPU(q)
	}
	return s
}

// BotPid is the main program's pid as the sandbox's init sees it (1 < pid; inside its PID
// namespace when there is one).
func (p *Process) BotPid() int { return p.botPid }

// Limits are the limits in force (defaults filled in).
func (p *Process) Limits() Limits { return p.limits }

// outReader counts what the tree writes and enforces the output limit.
type outReader struct {
	f    *os.File
	p    *Process
	once sync.Once
}

func (r *outReader) Read(b []byte) (int, error) {
	n, err := r.f.Read(b)
	if n > 0 {
		total := r.p.out.Add(int64(n))
		if lim := r.p.limits.OutputBytes; lim > 0 && total > lim {
			go func() {
				_ = r.p.KillFor(KindOutputLimit, "wrote more than "+bytesText(lim)+" to stdout and stderr")
			}()
		}
	}
	if err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		r.close()
		if errors.Is(err, os.ErrClosed) {
			err = io.EOF
		}
	}
	return n, err
}

func (r *outReader) close() {
	if r != nil {
		r.once.Do(func() { _ = r.f.Close() })
	}
}

// watch enforces the wall time limit and the tree's total CPU time (a cgroup reading, since
// the CPU rlimit only bounds each process alone).
func (p *Process) watch() {
	var wall <-chan time.Time
	if p.limits.WallTime > 0 {
		t := time.NewTimer(p.limits.WallTime - time.Since(p.started))
		defer t.Stop()
		wall = t.C
	}
	// One cheap tick: the tree's CPU total, and OOM kills (a bot whose process the kernel
	// killed for memory is over, even if its main process survived).
	var tick <-chan time.Time
	_, cpuOK := p.cg.cpu()
	cpuOK = cpuOK && p.limits.CPUSeconds > 0
	oomOK := p.cg != nil && p.cg.dirs[cgMemory] != ""
	if cpuOK || oomOK {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		tick = t.C
	}
	limit := time.Duration(p.limits.CPUSeconds) * time.Second
	for {
		select {
		case <-p.done:
			return
		case <-wall:
			_ = p.KillFor(KindTimeLimit, "ran longer than "+p.limits.WallTime.String())
			return
		case <-tick:
			if oomOK {
				if n := p.cg.oomKills(); n > 0 {
					_ = p.KillFor(KindMemoryLimit, fmt.Sprintf("%d process(es) killed for using more than %s", n, bytesText(p.limits.MemoryBytes)))
					return
				}
			}
			if !cpuOK {
				continue
			}
			if cpu, _ := p.cg.cpu(); cpu >= limit {
				_ = p.KillFor(KindCPULimit, fmt.Sprintf("the tree used %v of CPU, limit %ds", cpu.Round(time.Millisecond), p.limits.CPUSeconds))
				return
			}
		}
	}
}

// HostUID is the host uid the bot runs as (-1 when the sandbox gives it no uid of its own),
// for checking the process table after the end.
func (p *Process) HostUID() int {
	if p.slot == nil {
		return -1
	}
	return p.slot.botUID()
}

// UIDRange is the range [lo, hi) of host uids the sandbox hands out: after every match has
// ended, no process on the machine should run with one of them.
func UIDRange() (lo, hi int) { return uidBase, uidBase + 2*uidSlots }
