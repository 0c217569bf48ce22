//go:build !arenadegraded

package sandbox

import (
	"os"
	"testing"
	"time"
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
