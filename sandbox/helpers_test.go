//go:build linux && !arenadegraded

package sandbox

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// run is one sandboxed act and what it printed.
type run struct {
	p        *Process
	mu       sync.Mutex
	out, err bytes.Buffer
	lines    chan string
	read     chan struct{}
}

// start runs the test binary with act in a sandbox and reads its output in the background.
func start(t *testing.T, act string, l Limits, edit ...func(*Spec)) *run {
	t.Helper()
	return startOn(t, nil, act, l, edit...)
}

// startOn is start on a plan of its own (nil: this machine's), such as one that hides kernel
// features.
func startOn(t *testing.T, pl *plan, act string, l Limits, edit ...func(*Spec)) *run {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	spec := Spec{Name: act, Path: exe, Env: []string{actEnv + "=" + act}, WorkDir: t.TempDir(), Limits: l}
	for _, e := range edit {
		e(&spec)
	}
	var p *Process
	if pl == nil {
		p, err = Start(spec)
	} else {
		p, err = startWith(pl, spec)
	}
	if err != nil {
		t.Fatalf("start %s: %v", act, err)
	}
	r := &run{p: p, lines: make(chan string, 1024), read: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		sc := bufio.NewScanner(p.Stdout())
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			r.mu.Lock()
			r.out.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			select {
			case r.lines <- sc.Text():
			default:
			}
		}
		_, _ = io.Copy(io.Discard, p.Stdout())
	}()
	go func() {
		defer wg.Done()
		var buf [4096]byte
		for {
			n, err := p.Stderr().Read(buf[:])
			r.mu.Lock()
			if r.err.Len() < 1<<16 {
				r.err.Write(buf[:n])
			}
			r.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { wg.Wait(); close(r.read) }()
	t.Cleanup(func() {
		_ = p.Kill()
		assertNoLeftovers(t, p)
	})
	return r
}

// wait waits for the end (at most d) and returns the output. Its end is a failure, so d is stretched by the slack factor (internal/slack): under
// emulation (the VM leg) a start reads its binary over a shared filesystem and takes seconds.
func (r *run) wait(t *testing.T, d time.Duration) string {
	t.Helper()
	d = slack.Of(t, d)
	select {
	case <-r.p.Done():
	case <-time.After(d):
		t.Fatalf("%s still running after %v; output %q", r.p.spec.Name, d, r.stdout())
	}
	select {
	case <-r.read:
	case <-time.After(slack.Of(t, 3*time.Second)):
		t.Fatalf("%s: output pipes still open after the end", r.p.spec.Name)
	}
	return r.stdout()
}

func (r *run) stdout() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.String()
}

// line waits for the first output line starting with prefix, up to d stretched by the slack
// factor (as wait).
func (r *run) line(t *testing.T, prefix string, d time.Duration) string {
	t.Helper()
	d = slack.Of(t, d)
	timeout := time.After(d)
	for {
		select {
		case l := <-r.lines:
			if strings.HasPrefix(l, prefix) {
				return l
			}
		case <-timeout:
			r.mu.Lock()
			defer r.mu.Unlock()
			t.Fatalf("%s: no line %q within %v; stdout %q stderr %q", r.p.spec.Name, prefix, d, r.out.String(), r.err.String())
		}
	}
}

// act runs act to its end and returns its output.
func act(t *testing.T, a string, l Limits, edit ...func(*Spec)) (string, *Process) {
	t.Helper()
	r := start(t, a, l, edit...)
	out := r.wait(t, 20*time.Second)
	return out, r.p
}

// assertNoLeftovers checks the process table, not a flag: the init's pid is gone (no zombie
// either) and no process runs as the bot's uid.
func assertNoLeftovers(t *testing.T, p *Process) {
	t.Helper()
	deadline := time.Now().Add(slack.Of(t, 2*time.Second))
	for {
		left := leftovers(p)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: processes left: %v", p.spec.Name, left)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func leftovers(p *Process) []string {
	var left []string
	if b, err := os.ReadFile("/proc/" + strconv.Itoa(p.Pid()) + "/stat"); err == nil {
		left = append(left, "init "+string(b))
	}
	if uid := p.HostUID(); uid >= 0 {
		for _, pid := range processesOfUID(uid) {
			left = append(left, "uid "+strconv.Itoa(uid)+" pid "+strconv.Itoa(pid))
		}
	}
	return left
}

// processesOfUID scans /proc for processes whose real uid is uid.
func processesOfUID(uid int) []int {
	var out []int
	ents, _ := os.ReadDir("/proc")
	want := strconv.Itoa(uid)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "status"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "Uid:") {
				f := strings.Fields(line)
				if len(f) > 1 && f[1] == want {
					out = append(out, pid)
				}
			}
		}
	}
	return out
}

// need skips the rest of a test when the report says a layer is not active here, and says so:
// the test then only proves the report is honest about it.
func need(t *testing.T, layers ...string) {
	t.Helper()
	rep := Probe()
	for _, name := range layers {
		l, ok := rep.Layer(name)
		if !ok {
			t.Fatalf("report has no layer %q", name)
		}
		if !l.Active {
			if l.Detail == "" {
				t.Fatalf("layer %q is inactive and the report does not say why", name)
			}
			if os.Getenv("ARENA_REQUIRE_SANDBOX") != "" {
				t.Fatalf("layer %q is not active, and ARENA_REQUIRE_SANDBOX (set by scripts/test.sh) demands every layer: %s", name, l.Detail)
			}
			t.Skipf("layer %q is not active on this machine (report: %s)", name, l.Detail)
		}
	}
}
