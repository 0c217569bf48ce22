//go:build linux && !arenadegraded

package sandbox

import (
	"io"
	"os"
	"os/exec"
	"testing"
)

// BenchmarkStart measures a whole sandboxed run of a trivial program (the test binary itself,
// printing one line): Start until the program runs, its output, its exit and the teardown.
// Run: go test -run '^$' -bench Start -benchtime 50x ./sandbox
func BenchmarkStart(b *testing.B) {
	exe, _ := os.Executable()
	work := b.TempDir()
	Probe()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := Start(Spec{Name: "bench", Path: exe, Env: []string{actEnv + "=hello"}, WorkDir: work})
		if err != nil {
			b.Fatal(err)
		}
		go io.Copy(io.Discard, p.Stderr())
		_, _ = io.Copy(io.Discard, p.Stdout())
		if err := p.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStartOnly measures Start alone: until the sandboxed program has been started.
func BenchmarkStartOnly(b *testing.B) {
	exe, _ := os.Executable()
	work := b.TempDir()
	Probe()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p, err := Start(Spec{Name: "bench", Path: exe, Env: []string{actEnv + "=sleep:1m"}, WorkDir: work})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = p.Kill()
		b.StartTimer()
	}
}

// BenchmarkPlainExec is the same run without any sandbox, for comparison.
func BenchmarkPlainExec(b *testing.B) {
	exe, _ := os.Executable()
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(exe)
		cmd.Env = []string{actEnv + "=hello"}
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSnapshot measures the per-move reading a host takes around each move.
func BenchmarkSnapshot(b *testing.B) {
	exe, _ := os.Executable()
	p, err := Start(Spec{Name: "bench", Path: exe, Env: []string{actEnv + "=sleep:1m"}, WorkDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Kill()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = p.Snapshot()
	}
}

// BenchmarkCPUTime measures the CPU clock's reading: one pread of the cgroup's CPU counter.
func BenchmarkCPUTime(b *testing.B) {
	exe, _ := os.Executable()
	p, err := Start(Spec{Name: "bench", Path: exe, Env: []string{actEnv + "=sleep:1m"}, WorkDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Kill()
	if _, ok := p.CPUTime(); !ok {
		b.Fatal("no cgroup counts this process's CPU time")
	}
	for b.Loop() {
		_, _ = p.CPUTime()
	}
}
