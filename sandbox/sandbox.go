package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// Limits bound what a process may use. Zero means the default; negative means unlimited.
type Limits struct {
	// MemoryBytes caps the tree's memory.
	MemoryBytes int64
	// Processes caps the number of processes and threads.
	Processes int
	// CPUSeconds caps the total CPU time.
	CPUSeconds int
	// OutputBytes caps what the process may write to stdout and stderr together.
	OutputBytes int64
	// FileBytes caps the size of any file it writes.
	FileBytes int64
	// OpenFiles caps open file descriptors.
	OpenFiles int
}

// Spec says what to run.
type Spec struct {
	// Name labels the process in reports ("bots/paper").
	Name string
	Path string
	Args []string // Args[0] is the program name, as in exec.Cmd
	Env  []string
	Dir  string
	// ReadOnly lists host paths the process may read (its own files, its runtime).
	ReadOnly []string
	// WorkDir is a private writable directory for the process (its TMPDIR and socket dir).
	WorkDir string
	Limits  Limits
}

// ExitReason says in plain words why a process ended.
type ExitReason struct {
	// Kind is one of: "exited", "signal", "killed" (by Kill), "time limit", "cpu limit",
	// "memory limit", "output limit", "forbidden system call".
	Kind   string
	Status int
	Signal syscall.Signal
	Detail string
}

func (r ExitReason) String() string {
	switch r.Kind {
	case "exited":
		return fmt.Sprintf("exited with status %d", r.Status)
	case "signal":
		return fmt.Sprintf("killed by signal %s", r.Signal)
	}
	if r.Detail != "" {
		return r.Kind + ": " + r.Detail
	}
	return r.Kind
}

// Usage is what a process used.
type Usage struct {
	CPU       time.Duration
	PeakBytes int64
}

// Process is a running sandboxed command.
type Process struct {
	spec   Spec
	cmd    *exec.Cmd
	stdout io.ReadCloser
	stderr io.ReadCloser

	waitOnce sync.Once
	done     chan struct{}
	waitErr  error
	killed   bool
	mu       sync.Mutex
}

// ErrStart means the process could not be started.
var ErrStart = errors.New("cannot start process")

// Start launches spec. The caller must read Stdout and Stderr and eventually call Kill.
func Start(spec Spec) (*Process, error) {
	cmd := &exec.Cmd{Path: spec.Path, Args: spec.Args, Env: spec.Env, Dir: spec.Dir}
	if len(cmd.Args) == 0 {
		cmd.Args = []string{spec.Path}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	p := &Process{spec: spec, cmd: cmd, done: make(chan struct{})}
	var err error
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	if p.stderr, err = cmd.StderrPipe(); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%w %s: %v", ErrStart, spec.Name, err)
	}
	return p, nil
}

// Pid of the process.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Stdout of the process.
func (p *Process) Stdout() io.Reader { return p.stdout }

// Stderr of the process.
func (p *Process) Stderr() io.Reader { return p.stderr }

// Done is closed once the process has been waited for.
func (p *Process) Done() <-chan struct{} { return p.done }

// Wait waits for the main process to end; call it only after both pipes reached EOF or the
// process was killed.
func (p *Process) Wait() error {
	p.waitOnce.Do(func() {
		p.waitErr = p.cmd.Wait()
		close(p.done)
	})
	<-p.done
	return p.waitErr
}

// Kill removes the whole process tree and waits until it is gone.
func (p *Process) Kill() error {
	p.mu.Lock()
	p.killed = true
	p.mu.Unlock()
	pid := p.cmd.Process.Pid
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	_ = syscall.Kill(pid, syscall.SIGKILL)
	return nil
}

// Reason explains how the process ended; valid after Wait.
func (p *Process) Reason() ExitReason {
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	st := p.cmd.ProcessState
	if st == nil {
		return ExitReason{Kind: "running"}
	}
	ws, _ := st.Sys().(syscall.WaitStatus)
	switch {
	case killed:
		return ExitReason{Kind: "killed", Detail: "stopped by the arena"}
	case ws.Signaled():
		return ExitReason{Kind: "signal", Signal: ws.Signal()}
	default:
		return ExitReason{Kind: "exited", Status: ws.ExitStatus()}
	}
}

// Usage reports CPU time and peak memory of the tree; valid after Wait.
func (p *Process) Usage() Usage {
	st := p.cmd.ProcessState
	if st == nil {
		return Usage{}
	}
	u := Usage{CPU: st.UserTime() + st.SystemTime()}
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		u.PeakBytes = ru.Maxrss * 1024
	}
	return u
}

// Env returns a clean environment: only the listed host variables, plus extra.
func Env(keep []string, extra ...string) []string {
	var env []string
	for _, k := range keep {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return append(env, extra...)
}
