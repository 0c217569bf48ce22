//go:build !arenadegraded

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// RunQueue is one reading of how the machine treats the tree's threads, for a clock that
// charges a bot what it chose (its CPU and its own waits) and never a busy machine.
type RunQueue struct {
	// Delay is how long the threads have been runnable but waiting for a CPU (the scheduler's
	// run-queue delay), summed over the threads now in the tree's cgroup: the second field of
	// /proc/<tid>/schedstat, which counts from each thread's birth. The kernel adds a wait to
	// it only when the thread gets a CPU, so a wait still going on is not in it (see Runnable).
	Delay time.Duration
	// Runnable is how many threads are runnable now (on a CPU or waiting for one): while one
	// is, the tree is not waiting by choice, and a wait it is in will show in a later Delay.
	Runnable int
}

// ReadRunQueue reads the tree's run queue (see RunQueue). ok is false where no cgroup lists
// the threads or the kernel keeps no schedstat.
//
// A thread that lowered its own priority (a nice value above the host's, which the bot
// inherits; SCHED_IDLE) chose to wait behind the machine's other work: its delay is not counted and it is not counted runnable,
// or a bot could park such a thread on the run queue to make its own sleep look like the
// machine's. A thread that has exited takes its delay with it, so a reading can only fall
// short: the bot is then charged more of its wall time, never less. The cost is one read of
// the cgroup's thread list and two small /proc reads per thread (about 20 us per thread),
// which is why the host reads it only for moves whose wall time passes their budget.
func (p *Process) ReadRunQueue() (RunQueue, bool) {
	// Without per-thread schedstat (an older or trimmed kernel) there is no reading: a
	// missing file must not read as no delay at all (Probe's CPU line says so).
	if p == nil || p.cg == nil || !p.plan.schedstat {
		return RunQueue{}, false
	}
	return p.cg.runQueue()
}

// RunQueueDelay is ReadRunQueue's Delay.
func (p *Process) RunQueueDelay() (time.Duration, bool) {
	q, ok := p.ReadRunQueue()
	return q.Delay, ok
}

// runQueue reads the threads of the cgroup that counts CPU.
func (c *cgroup) runQueue() (RunQueue, bool) {
	dir, ok := c.dirs[cgCPUAcct]
	if !ok {
		return RunQueue{}, false
	}
	list := "tasks"
	if c.v2[cgCPUAcct] {
		list = "cgroup.threads"
	}
	b, err := os.ReadFile(filepath.Join(dir, list))
	if err != nil {
		return RunQueue{}, false
	}
	var q RunQueue
	var buf [1024]byte
	for _, f := range bytes.Fields(b) {
		tid, err := strconv.Atoi(string(f))
		if err != nil {
			continue
		}
		runnable, lowered, ok := schedState(tid, buf[:], hostNice())
		if !ok || lowered {
			continue // gone since the list was read, or waiting by its own choice
		}
		d, ok := schedDelay(tid, buf[:])
		if !ok {
			continue
		}
		q.Delay += d
		if runnable {
			q.Runnable++
		}
	}
	return q, true
}

// schedIdle is the SCHED_IDLE policy: a thread that runs only when nothing else wants a CPU.
const schedIdle = 5

// schedState reads one thread's /proc/<tid>/stat: whether it is runnable (state R) and
// whether it lowered its own priority (nice above base, or SCHED_IDLE). The fields after the
// command's closing parenthesis are the state (field 3), ..., nice (19), ..., policy (41).
func schedState(tid int, buf []byte, base int) (runnable, lowered, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(tid) + "/stat")
	if err != nil {
		return false, false, false
	}
	n, _ := f.Read(buf)
	_ = f.Close()
	i := bytes.LastIndexByte(buf[:n], ')')
	if i < 0 {
		return false, false, false
	}
	fields := bytes.Fields(buf[i+1 : n])
	if len(fields) < 39 {
		return false, false, false
	}
	nice, _ := strconv.Atoi(string(fields[16]))
	policy, _ := strconv.Atoi(string(fields[38]))
	return fields[0][0] == 'R', nice > base || policy == schedIdle, true
}

// hostNice is the host's own nice value, which every bot starts with (a host started with
// nice -n 5 starts its bots at 5: that is not their choice).
var hostNice = sync.OnceValue(func() int {
	var buf [1024]byte
	f, err := os.Open("/proc/self/stat")
	if err != nil {
		return 0
	}
	n, _ := f.Read(buf[:])
	_ = f.Close()
	i := bytes.LastIndexByte(buf[:n], ')')
	if i < 0 {
		return 0
	}
	fields := bytes.Fields(buf[i+1 : n])
	if len(fields) < 17 {
		return 0
	}
	nice, _ := strconv.Atoi(string(fields[16]))
	return nice
})

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
