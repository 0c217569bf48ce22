//go:build linux && !arenadegraded

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// Four spinning threads on a quota of a fifth of a core are runnable nearly all the time and
// run a fifth of it at most: their run-queue delay grows faster than their CPU time, and never
// past the wall time of all four threads together.
func TestRunQueueDelayCountsTheWaitForACPU(t *testing.T) {
	t.Parallel()
	need(t, LayerCPU)
	r := start(t, "spinall", Limits{CPUs: 0.2})
	r.line(t, "spinning", 5*time.Second)
	c0, _ := r.p.CPUTime()
	q0, ok := r.p.RunQueueDelay()
	if !ok {
		t.Fatal("no run-queue delay where the CPU layer is active")
	}
	t0 := time.Now()
	time.Sleep(500 * time.Millisecond)
	c1, _ := r.p.CPUTime()
	q1, _ := r.p.RunQueueDelay()
	wall := time.Since(t0)
	cpu, rq := c1-c0, q1-q0
	if rq <= cpu || rq > 5*wall {
		t.Fatalf("in %v of wall time: CPU %v, run-queue delay %v: want the delay above the CPU time, under 5 x the wall time (4 spinners and the main thread)", wall, cpu, rq)
	}
	t.Logf("in %v: CPU %v, run-queue delay %v", wall, cpu, rq)
}

// Threads that come and go take their run-queue delay with them: a single reading counts only
// the threads alive at that instant. Four threads spin 500 ms of wall time on a fifth of a
// core and exit; the meter, read every 10 ms, keeps what they waited, where the difference of
// two single readings around the burst sees only the threads that stayed (the meter counted
// 0.7-1.7 s more in four runs here; without it, nothing more).
func TestRunQueueMeterKeepsTheWaitsOfThreadsThatExited(t *testing.T) {
	t.Parallel()
	need(t, LayerCPU)
	r := start(t, "burst", Limits{CPUs: 0.2})
	r.line(t, "ready", 5*time.Second)
	m := r.p.NewRunQueueMeter()
	q0, _ := r.p.ReadRunQueue()
	if m == nil {
		t.Fatal("no run-queue meter where the CPU layer is active")
	}
	stop, read := make(chan struct{}), make(chan bool)
	go func() {
		ok := true
		for {
			select {
			case <-stop:
				read <- ok
				return
			case <-time.After(10 * time.Millisecond):
				_, r := m.Read()
				ok = ok && r
			}
		}
	}()
	r.line(t, "burst done", 20*time.Second)
	close(stop)
	if !<-read {
		t.Fatal("the meter lost its reading")
	}
	q, _ := m.Read()
	q1, _ := r.p.ReadRunQueue()
	single := q1.Delay - q0.Delay
	t.Logf("run-queue delay of the burst: metered %v, difference of two single readings %v", q.Delay, single)
	if q.Delay < single+250*time.Millisecond {
		t.Fatalf("metered run-queue delay %v, single readings %v: the waits of the four threads that exited were lost (they were runnable 2 s on a fifth of a core)", q.Delay, single)
	}
}

// A thread that lowers its own priority chose its wait for a CPU: four threads that spin at
// nice 19 (always runnable, waiting behind everything else on the machine) add nothing to the
// run queue the clock subtracts and are never counted runnable, or a bot could park such
// threads to make its own sleep look like the machine's. No quota: a throttled cgroup would
// make the runtime's own threads wait too.
func TestRunQueueLeavesOutThreadsThatLoweredTheirPriority(t *testing.T) {
	t.Parallel()
	need(t, LayerCPU)
	r := start(t, "spinnice", Limits{CPUs: -1})
	r.line(t, "spinning", 5*time.Second)
	q0, ok := r.p.ReadRunQueue()
	if !ok {
		t.Fatal("no run queue where the CPU layer is active")
	}
	all0 := allDelay(t, r.p)
	c0, _ := r.p.CPUTime()
	// Watched until the spinners have had 20 ms of CPU (500 ms on a quiet machine): at nice 19
	// beside a busy machine's nice-0 work they get a few ms a second.
	most, t0 := 0, time.Now()
	var cpu time.Duration
	for n := 0; n < 5 || cpu < 20*time.Millisecond; n++ {
		if time.Since(t0) > slack.Of(t, 15*time.Second) {
			t.Fatalf("the niced threads used %v of CPU time in %v: they are not spinning", cpu, time.Since(t0).Round(time.Millisecond))
		}
		time.Sleep(100 * time.Millisecond)
		q, _ := r.p.ReadRunQueue()
		most = max(most, q.Runnable)
		c, _ := r.p.CPUTime()
		cpu = c - c0
	}
	q1, _ := r.p.ReadRunQueue()
	all := allDelay(t, r.p) - all0
	c1, _ := r.p.CPUTime()
	cpu = c1 - c0
	counted := q1.Delay - q0.Delay
	t.Logf("in %v: CPU %v, run-queue delay of all threads %v, counted %v, at most %d counted runnable", time.Since(t0).Round(time.Millisecond), cpu, all, counted, most)
	if most >= 4 || 2*counted > all {
		t.Fatalf("counted %v of the threads' %v run-queue delay and up to %d runnable threads: the niced spinners' own choice counted as the machine's", counted, all, most)
	}
}

// allDelay is the run-queue delay of every thread of p's cgroup, whatever its priority.
func allDelay(t *testing.T, p *Process) time.Duration {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(p.cg.dirs[cgCPUAcct], map[bool]string{true: "cgroup.threads", false: "tasks"}[p.cg.v2[cgCPUAcct]]))
	if err != nil {
		t.Fatal(err)
	}
	var sum time.Duration
	var buf [128]byte
	for _, f := range strings.Fields(string(b)) {
		tid, _ := strconv.Atoi(f)
		d, _ := schedDelay(tid, buf[:])
		sum += d
	}
	return sum
}

// BenchmarkRunQueueDelay measures one run-queue reading of a tree with several threads (the
// test binary sleeping: a Go program's usual handful): the cgroup's thread list and one
// schedstat per thread. The CPU clock takes it only for moves slower than their budget.
func BenchmarkRunQueueDelay(b *testing.B) {
	exe, _ := os.Executable()
	p, err := Start(Spec{Name: "bench", Path: exe, Env: []string{actEnv + "=sleep:1m"}, WorkDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Kill()
	if _, ok := p.RunQueueDelay(); !ok {
		b.Fatal("no cgroup lists this process's threads")
	}
	for b.Loop() {
		_, _ = p.RunQueueDelay()
	}
}

// A front program (Spec.Front: the stdio bridge) is the arena's, not the bot's: CPUTime leaves
// out its own CPU time and counts its children's, and the tree's usage still holds both. The
// same tree without Front is charged both.
func TestCPUTimeLeavesOutTheFront(t *testing.T) {
	t.Parallel()
	need(t, LayerCPU)
	for _, front := range []bool{true, false} {
		r := start(t, "front", Limits{}, func(s *Spec) { s.Front = front })
		r.line(t, "front done", slack.Of(t, 30*time.Second))
		cpu, ok := r.p.CPUTime()
		snap := r.p.Snapshot().CPU
		tree := r.p.Usage().CPU
		t.Logf("front %v: CPUTime %v, Snapshot %v, the tree's usage %v", front, cpu, snap, tree)
		switch {
		case !ok:
			t.Fatal("no CPU time where the CPU layer is active")
		case tree < 500*time.Millisecond:
			t.Fatalf("the tree used %v, want at least the 500 ms its two processes burnt", tree)
		case front && (cpu < 200*time.Millisecond || cpu >= 300*time.Millisecond || snap < cpu || snap >= 300*time.Millisecond):
			t.Fatalf("front: CPUTime %v, Snapshot %v: want the child's 200 ms and less than the front's 300 ms", cpu, snap)
		case !front && cpu < 500*time.Millisecond:
			t.Fatalf("no front: CPUTime %v, want both processes' 500 ms", cpu)
		}
		// The report of a CPU timeout names the main program's part, and whether it is a front.
		if parts, ok := r.p.CPUParts(); !ok || parts.Front != front || parts.Main < 300*time.Millisecond || parts.Main >= tree {
			t.Fatalf("front %v: parts %+v (ok %v), want the front flag and the main program's 300 ms", front, parts, ok)
		}
	}
}
