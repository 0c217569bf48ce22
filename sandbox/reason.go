package sandbox

import (
	"fmt"
	"syscall"
	"time"
)

// Kinds of ExitReason, in plain words.
const (
	KindRunning     = "running"
	KindExited      = "exited"
	KindSignal      = "signal"
	KindKilled      = "killed"
	KindTimeLimit   = "time limit"
	KindCPULimit    = "cpu limit"
	KindMemoryLimit = "memory limit"
	KindOutputLimit = "output limit"
	KindFileLimit   = "file size limit"
	KindSyscall     = "forbidden system call"
	// KindProcessLimit: the tree took every process slot of its limit, so that the sandbox's
	// own init, which counts against the same limit, could not start a thread and ended.
	KindProcessLimit = "process limit"
	KindSandbox      = "sandbox failure"
)

// ExitReason says in plain words why a process ended.
type ExitReason struct {
	// Kind is one of the Kind constants.
	Kind string
	// Status is the exit status of the main process (Kind "exited").
	Status int
	// Signal is the signal that ended the main process, if one did.
	Signal syscall.Signal
	// Detail adds what the arena knows (the limit that was hit, who killed it).
	Detail string
}

// Fault reports whether the reason is the process's own doing (anything but a clean exit and a
// kill by the arena).
func (r ExitReason) Fault() bool {
	switch r.Kind {
	case KindRunning, KindKilled:
		return false
	case KindExited:
		return r.Status != 0
	}
	return true
}

func (r ExitReason) String() string {
	var s string
	switch r.Kind {
	case KindExited:
		s = fmt.Sprintf("exited with status %d", r.Status)
	case KindSignal:
		s = fmt.Sprintf("killed by signal %d (%s)", int(r.Signal), r.Signal)
	default:
		s = r.Kind
	}
	if r.Detail != "" {
		s += ": " + r.Detail
	}
	return s
}

// Usage is what a process tree used.
type Usage struct {
	// Wall is the time from start to exit (or until now while running).
	Wall time.Duration
	// CPU is the user plus system time of the whole tree.
	CPU time.Duration
	// PeakBytes is the tree's peak memory (cgroup), or the largest process's peak RSS.
	PeakBytes int64
	// OOMKills counts processes the kernel killed for the memory limit.
	OOMKills int
	// ProcessLimitHits counts fork/clone calls refused by the process limit.
	ProcessLimitHits int
	// OutputBytes is what the process wrote to stdout and stderr together.
	OutputBytes int64
}

// Snapshot is a cheap reading of a running process tree, for diffing around one move.
type Snapshot struct {
	At time.Time
	// CPU is the tree's CPU time so far.
	CPU time.Duration
	// MemoryBytes is the tree's current memory (0 when not measurable cheaply).
	MemoryBytes int64
}

// Sub returns the CPU and wall time between an earlier snapshot and s.
func (s Snapshot) Sub(earlier Snapshot) (wall, cpu time.Duration) {
	return s.At.Sub(earlier.At), s.CPU - earlier.CPU
}
