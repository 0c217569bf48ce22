//go:build !arenadegraded

package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// frontClock reads the CPU time of a tree's main program where Spec.Front says it is the
// arena's own, so that CPUTime can leave it out. The kernel keeps a process's CPU clock for
// anyone to read by pid (clock_gettime on the clock made from it), threads that ended
// included, to the nanosecond as the cgroup's count is.
type frontClock struct {
	clock int32
	// seen is the front's CPU time as last read (kept once the process is gone); last the
	// last CPUTime returned, which never goes back (the two files are read one after the
	// other).
	seen, last atomic.Int64
}

// newFrontClock finds the main program (nsPid in the sandbox's PID namespace) among the
// children of the init (host pid initPid); nil when it cannot be found.
func newFrontClock(initPid, nsPid int) *frontClock {
	pid := childWithNSPid(initPid, nsPid)
	if pid <= 0 {
		return nil
	}
	f := &frontClock{clock: processClock(pid)}
	if _, ok := f.read(); !ok {
		return nil
	}
	return f
}

// read is the front's CPU time now, or as last read once it cannot be read (it has ended).
func (f *frontClock) read() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(f.clock, &ts); err != nil {
		return time.Duration(f.seen.Load()), false
	}
	v := ts.Nano()
	f.seen.Store(v)
	return time.Duration(v), true
}

// charged keeps the CPUTime monotonic: the later of v and the last one returned.
func (f *frontClock) charged(v time.Duration) time.Duration {
	for {
		last := f.last.Load()
		if int64(v) <= last {
			return time.Duration(last)
		}
		if f.last.CompareAndSwap(last, int64(v)) {
			return v
		}
	}
}

// childWithNSPid is the host pid of the child of initPid whose pid in its innermost PID
// namespace is nsPid (the last field of the NSpid line in its status). The children files of
// the init's threads name the candidates; where the kernel has none, every process's PPid.
func childWithNSPid(initPid, nsPid int) int {
	var candidates []string
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", initPid))
	for _, t := range tasks {
		if b, err := os.ReadFile(t); err == nil {
			candidates = append(candidates, strings.Fields(string(b))...)
		}
	}
	if len(tasks) == 0 {
		candidates, _ = filepath.Glob("/proc/[0-9]*")
		for i, c := range candidates {
			candidates[i] = filepath.Base(c)
		}
	}
	for _, c := range candidates {
		pid, err := strconv.Atoi(c)
		if err != nil {
			continue
		}
		if ppid, inner := statusPids(pid); ppid == initPid && inner == nsPid {
			return pid
		}
	}
	return 0
}

// statusPids reads pid's parent and its pid as its own PID namespace numbers it (pid itself
// where the kernel has no NSpid line).
func statusPids(pid int) (ppid, inner int) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0
	}
	inner = pid
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "PPid:"); ok {
			ppid, _ = strconv.Atoi(strings.TrimSpace(rest))
		}
		if rest, ok := strings.CutPrefix(line, "NSpid:"); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				inner, _ = strconv.Atoi(f[len(f)-1])
			}
		}
	}
	return ppid, inner
}

// CPUParts is the CPU time so far of the two processes of a tree the arena knows by name, each
// by its process CPU clock: the sandbox's init (the arena's) and the main program (the bot's
// own, or its front). The rest of the cgroup's count is their descendants' and the exited.
type CPUParts struct {
	Init, Main time.Duration
	// Front: the main program is the arena's (Spec.Front), and CPUTime leaves Main out.
	Front bool
}

// CPUParts reads the init's and the main program's CPU time, for a report that says whose
// CPU a charge was; ok is false where either cannot be read (no cgroup, a process gone).
func (p *Process) CPUParts() (CPUParts, bool) {
	if !p.CountsCPU() {
		return CPUParts{}, false
	}
	p.mainOnce.Do(func() {
		switch {
		case p.front != nil:
			p.mainClock = p.front.clock // found at start
		default:
			if pid := childWithNSPid(p.Pid(), p.botPid); pid > 0 {
				p.mainClock = processClock(pid)
			}
		}
	})
	if p.mainClock == 0 {
		return CPUParts{}, false
	}
	parts := CPUParts{Front: p.front != nil}
	var ts unix.Timespec
	if unix.ClockGettime(processClock(p.Pid()), &ts) != nil {
		return CPUParts{}, false
	}
	parts.Init = time.Duration(ts.Nano())
	if unix.ClockGettime(p.mainClock, &ts) != nil {
		return CPUParts{}, false
	}
	parts.Main = time.Duration(ts.Nano())
	return parts, true
}

// processClock is the clock id of pid's process CPU clock: the kernel's
// MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED).
func processClock(pid int) int32 { return int32(^pid<<3 | 2) }
