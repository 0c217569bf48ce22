//go:build !arenadegraded

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// RunQueueDelay is how long the tree's threads have been runnable but waiting for a CPU (the
// scheduler's run-queue delay), summed over the threads now in its cgroup: the second field
// of /proc/<tid>/schedstat, which counts from each thread's birth. ok is false where no cgroup
// lists the threads or the kernel keeps no schedstat (Probe's CPU line then says so; a missing
// file must not read as no delay at all). The CPU clock subtracts it from a move's wall time,
// so that the bot's wall cap counts what it chose (its CPU and its own waits) and never the
// machine's load.
//
// A thread that has exited takes its delay with it, so a reading can only fall short: the
// bot is then charged more of its wall time, never less. The cost is one read of the cgroup's
// thread list and one of each thread's schedstat (about 10 us per thread), which is why the
// host reads it only for moves whose wall time nears their cap.
func (p *Process) RunQueueDelay() (time.Duration, bool) {
	if p == nil || p.cg == nil || !p.plan.schedstat {
		return 0, false
	}
	return p.cg.runQueueDelay()
}

// runQueueDelay sums the run-queue delay of the threads of the cgroup that counts CPU.
func (c *cgroup) runQueueDelay() (time.Duration, bool) {
	dir, ok := c.dirs[cgCPUAcct]
	if !ok {
		return 0, false
	}
	list := "tasks"
	if c.v2[cgCPUAcct] {
		list = "cgroup.threads"
	}
	b, err := os.ReadFile(filepath.Join(dir, list))
	if err != nil {
		return 0, false
	}
	var sum time.Duration
	var buf [128]byte
	for _, f := range bytes.Fields(b) {
		tid, err := strconv.Atoi(string(f))
		if err != nil {
			continue
		}
		d, ok := schedDelay(tid, buf[:])
		if !ok {
			continue // gone since the list was read
		}
		sum += d
	}
	return sum, true
}

// schedDelay reads one thread's run-queue delay: /proc/<tid>/schedstat is
// "<ns on CPU> <ns waiting on a run queue> <timeslices>".
func schedDelay(tid int, buf []byte) (time.Duration, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(tid) + "/schedstat")
	if err != nil {
		return 0, false
	}
	n, _ := f.Read(buf)
	_ = f.Close()
	fields := bytes.Fields(buf[:n])
	if len(fields) < 2 {
		return 0, false
	}
	ns, err := strconv.ParseInt(string(fields[1]), 10, 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(ns), true
}
