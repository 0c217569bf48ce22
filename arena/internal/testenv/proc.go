package testenv

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// ModuleRoot is the arena checkout the tests run in.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// ArenaEnv names an arena binary built from the checkout under test, which BuildArena then
// returns instead of linking its own: scripts/test.sh builds one for the whole Go lane, where
// about ten tests each linked the 50 MB binary (4-5 CPU-seconds a link) from the same tree.
const ArenaEnv = "ARENA_TEST_ARENA"

// BuildArena builds the arena command from root into dir and returns its path (or $ArenaEnv's):
// tests that run real coordinator, server and worker processes start it.
func BuildArena(root, dir string) (string, error) {
	if bin := os.Getenv(ArenaEnv); bin != "" {
		if !filepath.IsAbs(bin) {
			return "", fmt.Errorf("%s=%q: give the absolute path of an arena built from this checkout", ArenaEnv, bin)
		}
		if _, err := os.Stat(bin); err != nil {
			return "", fmt.Errorf("%s: %w (unset it to build one)", ArenaEnv, err)
		}
		return bin, nil
	}
	bin := filepath.Join(dir, "arena")
	build := exec.Command("go", "build", "-o", bin, "./arena/cmd/arena")
	build.Dir = root
	if b, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building arena: %v\n%s", err, b)
	}
	return bin, nil
}

// Proc is a process whose output lines are kept for the test to wait on; it is killed when
// the test ends, and its output logged if the test failed.
type Proc struct {
	Name string
	Cmd  *exec.Cmd
	// Done is closed once the process ended and its output is read; Err is then how it ended.
	Done chan struct{}
	Err  error

	t     testing.TB
	mu    sync.Mutex
	lines []string
	more  chan struct{}
}

// Start runs cmd (its Dir and Env as set) under the name name.
func Start(t testing.TB, name string, cmd *exec.Cmd) *Proc {
	t.Helper()
	p := &Proc{Name: name, Cmd: cmd, Done: make(chan struct{}), t: t, more: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.Err = cmd.Wait()
		pw.Close()
	}()
	go func() {
		defer close(p.Done)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			p.mu.Unlock()
			select {
			case p.more <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		<-p.Done
		if t.Failed() {
			t.Logf("%s output:\n%s", p.Name, p.Output())
		}
	})
	return p
}

// Kill9 kills the process with SIGKILL and waits for its end.
func (p *Proc) Kill9() {
	p.t.Helper()
	if err := p.Cmd.Process.Signal(syscall.SIGKILL); err != nil {
		p.t.Fatal(err)
	}
	<-p.Done
}

// Output is everything the process printed so far.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// Count is the number of lines matching re from line from on, and the last one's groups.
func (p *Proc) Count(re *regexp.Regexp, from int) (n int, matches []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.lines[min(from, len(p.lines)):] {
		if m := re.FindStringSubmatch(l); m != nil {
			n++
			matches = m
		}
	}
	return n, matches
}

// Len is the number of lines printed so far.
func (p *Proc) Len() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.lines)
}

// WaitFor waits until n lines from line from on match re; it returns the last one's groups.
func (p *Proc) WaitFor(re *regexp.Regexp, n, from int, within time.Duration) []string {
	p.t.Helper()
	deadline := time.After(within)
	for {
		if c, m := p.Count(re, from); c >= n {
			return m
		}
		select {
		case <-p.more:
		case <-p.Done:
			if c, m := p.Count(re, from); c >= n {
				return m
			}
			p.t.Fatalf("%s ended (%v) before %d lines matched %s:\n%s", p.Name, p.Err, n, re, p.Output())
		case <-deadline:
			p.t.Fatalf("%s: no %d lines matching %s within %v:\n%s", p.Name, n, re, within, p.Output())
		case <-time.After(20 * time.Millisecond):
		}
	}
}
