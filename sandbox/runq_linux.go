//go:build !arenadegraded

package sandbox

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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
// which is why the host reads it only for moves whose wall time passes their budget. A clock
// that reads it repeatedly keeps exited threads' delays with a RunQueueMeter.
func (p *Process) ReadRunQueue() (RunQueue, bool) {
	// Without per-thread schedstat (an older or trimmed kernel) there is no reading: a
	// missing file must not read as no delay at all (Probe's CPU line says so).
	if p == nil || p.cg == nil || !p.plan.schedstat {
		return RunQueue{}, false
	}
	// A meter's count of threads it has not read before: each one's whole delay.
	return (&RunQueueMeter{p: p, threads: map[int]*threadWait{}}).read(false)
}

// RunQueueDelay is ReadRunQueue's Delay.
func (p *Process) RunQueueDelay() (time.Duration, bool) {
	q, ok := p.ReadRunQueue()
	return q.Delay, ok
}

// RunQueueMeter counts a tree's run-queue delay from the moment it is made, reading by
// reading: what a thread had waited when it was last read stays counted after it exits. A
// single ReadRunQueue counts only the threads alive at that instant, so a thread pool that
// grows under load and shrinks again (gRPC's does) took its waits for a CPU with it, and a
// bot blocked on such threads was charged the machine's load as its own waiting (beside four
// busy loops, a Python bot's start: 0.4 s of CPU and "40 s of its own waiting"). A thread
// that exits between two readings loses what it waited since the last one, so readings as
// frequent as the caller's polls bound the shortfall.
type RunQueueMeter struct {
	p       *Process
	threads map[int]*threadWait
	// gone is what exited threads had waited since the meter was made, as last read.
	gone time.Duration
	// readings counts the readings; a thread not marked with the latest one has exited.
	readings int
}

// threadWait is one thread's run-queue delay as the meter counts it: last read minus base
// (its delay when first read before the meter began, 0 for a thread born since, plus what it
// waited while it had lowered its priority).
type threadWait struct {
	base, last time.Duration
	mark       int // the reading that last saw it
}

// NewRunQueueMeter reads the tree's threads now: their waits so far are not counted. It
// returns nil where ReadRunQueue has no reading (Read then reports ok false).
func (p *Process) NewRunQueueMeter() *RunQueueMeter {
	if p == nil || p.cg == nil || !p.plan.schedstat {
		return nil
	}
	m := &RunQueueMeter{p: p, threads: map[int]*threadWait{}}
	if _, ok := m.read(true); !ok {
		return nil
	}
	return m
}

// Read is the delay counted since the meter was made and the threads runnable now (see
// RunQueue). A thread that lowered its own priority is counted as in ReadRunQueue: not
// runnable, and its delay while so lowered (as far as readings show) not counted.
func (m *RunQueueMeter) Read() (RunQueue, bool) {
	if m == nil {
		return RunQueue{}, false
	}
	return m.read(false)
}

func (m *RunQueueMeter) read(first bool) (RunQueue, bool) {
	tids, ok := m.p.cg.threads()
	if !ok {
		return RunQueue{}, false
	}
	m.readings++
	var q RunQueue
	var buf [1024]byte
	for _, tid := range tids {
		runnable, lowered, ok := schedState(tid, buf[:], hostNice())
		if !ok {
			continue
		}
		d, ok := schedDelay(tid, buf[:])
		if !ok {
			continue
		}
		t := m.threads[tid]
		if t != nil && d < t.last {
			// A new thread has the number of one that exited: count the old one as gone.
			m.gone += t.last - t.base
			t = nil
		}
		switch {
		case t == nil && first:
			t = &threadWait{base: d, last: d}
		case t == nil:
			t = &threadWait{last: d} // born since: all its delay is in the meter's time
			if lowered {
				t.base = d
			}
		case lowered:
			t.base += d - t.last // waits it chose are not the machine's
			t.last = d
		default:
			t.last = d
		}
		t.mark = m.readings
		m.threads[tid] = t
		if runnable && !lowered {
			q.Runnable++
		}
	}
	for tid, t := range m.threads {
		if t.mark != m.readings {
			m.gone += t.last - t.base
			delete(m.threads, tid)
			continue
		}
		q.Delay += t.last - t.base
	}
	q.Delay += m.gone
	return q, true
}

// ThreadWaits says where the bot's threads are now (the init's left out), for a report of a bot charged its own
// waiting: how many run, and for the others the kernel function each sleeps in
// (/proc/<tid>/wchan, e.g. "pipe_read 1, futex_wait_queue 4"), most common first. Empty where
// no cgroup lists the threads.
func (p *Process) ThreadWaits() string {
	if p == nil || p.cg == nil {
		return ""
	}
	tids, ok := p.cg.threads()
	if !ok {
		return ""
	}
	// The init's threads are the arena's, not the bot's.
	initTask := "/proc/" + strconv.Itoa(p.Pid()) + "/task/"
	count := map[string]int{}
	var buf [1024]byte
	for _, tid := range tids {
		if _, err := os.Stat(initTask + strconv.Itoa(tid)); err == nil {
			continue
		}
		runnable, _, ok := schedState(tid, buf[:], hostNice())
		if !ok {
			continue
		}
		where := "running"
		if !runnable {
			b, err := os.ReadFile("/proc/" + strconv.Itoa(tid) + "/wchan")
			where = strings.TrimSpace(string(b))
			if err != nil || where == "" || where == "0" {
				where = "sleeping"
			}
		}
		count[where]++
	}
	names := make([]string, 0, len(count))
	for n := range count {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if count[names[i]] != count[names[j]] {
			return count[names[i]] > count[names[j]]
		}
		return names[i] < names[j]
	})
	for i, n := range names {
		names[i] = fmt.Sprintf("%s %d", n, count[n])
	}
	return strings.Join(names, ", ")
}

// threads lists the thread IDs of the cgroup that counts CPU.
func (c *cgroup) threads() ([]int, bool) {
	dir, ok := c.dirs[cgCPUAcct]
	if !ok {
		return nil, false
	}
	list := "tasks"
	if c.v2[cgCPUAcct] {
		list = "cgroup.threads"
	}
	b, err := os.ReadFile(filepath.Join(dir, list))
	if err != nil {
		return nil, false
	}
	var tids []int
	for _, f := range bytes.Fields(b) {
		if tid, err := strconv.Atoi(string(f)); err == nil {
			tids = append(tids, tid)
		}
	}
	return tids, true
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
