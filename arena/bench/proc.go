package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/internal/selfcpu"
)

// launcher starts the bench's bots, building Go ones once.
type launcher struct {
	res  *botspec.Resolver
	root string
}

// GoBot and PythonBot are the trivial bots, relative to the repository root.
const (
	GoBot     = "bots/bench/cmd/rock"
	PythonBot = "examples/python/dynamite/bot.py"
	// PythonLoop plays two PythonBots in one Python process (the original harness's way).
	PythonLoop = "bots/bench/python/inprocess.py"
)

func (l *launcher) launch(ctx context.Context, rel string) (*host.Bot, error) {
	return l.launchWith(ctx, rel, host.Options{})
}

// launchWith launches with explicit host options (Unconfined: without the sandbox).
func (l *launcher) launchWith(ctx context.Context, rel string, opt host.Options) (*host.Bot, error) {
	c, err := l.res.Command(filepath.Join(l.root, rel))
	if err != nil {
		return nil, err
	}
	c.Name = rel
	return host.Launch(ctx, c, opt)
}

// FindRoot walks up from dir to the directory holding go.mod.
func FindRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", fmt.Errorf("no go.mod above %s: run the bench inside the arena repository or pass --root", dir)
		}
		d = up
	}
}

// rss returns the resident memory of pid in bytes (VmRSS).
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// rssTree sums the resident memory of pid and all its descendants (a sandbox may put an
// init between the host and the bot).
func rssTree(pid int) int64 {
	var sum int64
	for _, p := range tree(pid) {
		sum += rss(p)
	}
	return sum
}

// tree returns pid and all its descendants.
func tree(pid int) []int {
	children := map[int][]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command may hold spaces and parentheses: fields start after the last ')'.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 2 {
			continue
		}
		pp, _ := strconv.Atoi(f[1])
		children[pp] = append(children[pp], p)
	}
	var out []int
	stack := []int{pid}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, p)
		stack = append(stack, children[p]...)
	}
	return out
}

// timeCommand runs a command n times and returns the wall times.
func timeCommand(ctx context.Context, n int, name string, args ...string) (Sample, error) {
	var s Sample
	for range n {
		t0 := time.Now()
		out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, firstLine(string(out)))
		}
		s = append(s, time.Since(t0))
	}
	return s, nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// cpuTime is the user+system CPU time of pid and its descendants' live processes, from
// /proc (10 ms resolution: use it over many moves).
func cpuTime(pid int) time.Duration {
	var sum time.Duration
	for _, p := range tree(pid) {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p))
		if err != nil {
			continue
		}
		i := bytes.LastIndexByte(b, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 {
			continue
		}
		// Fields after the command: state is f[0], so utime (field 14) is f[11], stime f[12].
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		sum += time.Duration(u+s) * (time.Second / 100) // USER_HZ is 100 on Linux
	}
	return sum
}

// selfCPU is the host's own CPU time (all threads).
func selfCPU() time.Duration { return selfcpu.Used() }
