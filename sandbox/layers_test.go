//go:build linux && !arenadegraded

package sandbox

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

func TestProbeReportsEveryLayer(t *testing.T) {
	rep := Probe()
	for _, name := range layerOrder {
		l, ok := rep.Layer(name)
		if !ok {
			t.Errorf("layer %q missing from the report", name)
			continue
		}
		if l.Detail == "" {
			t.Errorf("layer %q has no detail", name)
		}
	}
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	t.Log("\n" + b.String())
	if !strings.Contains(b.String(), "layers active") {
		t.Fatalf("report text: %q", b.String())
	}
}

func TestCleanEnvironment(t *testing.T) {
	t.Setenv("ARENA_SECRET", "hunter2") // the host has it, the bot must not
	out, p := act(t, "env", Limits{}, func(s *Spec) { s.Env = append(s.Env, "ONLY=this") })
	want := map[string]bool{"env " + actEnv + "=env": true, "env ONLY=this": true}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !want[line] {
			t.Errorf("unexpected variable inside: %q", line)
		}
	}
	if r := p.Reason(); r.Kind != KindExited || r.Status != 0 {
		t.Fatalf("reason %v", r)
	}
}

func TestIdentityAndNamespaces(t *testing.T) {
	t.Parallel()
	need(t, LayerUserNS, LayerPIDNS, LayerUTSNS, LayerUID)
	out, p := act(t, "id", Limits{})
	if !strings.Contains(out, "uid 1000 gid 1000 groups [] ") || !strings.Contains(out, "host arena") {
		t.Fatalf("identity inside: %q", out)
	}
	var pid int
	if i := strings.Index(out, " pid "); i >= 0 {
		pid, _ = strconv.Atoi(strings.Fields(out[i+5:])[0])
	}
	if pid < 2 || pid > 64 {
		t.Errorf("the bot should have a small pid under its init in its own PID namespace: %q", out)
	}
	lo, hi := UIDRange()
	if u := p.HostUID(); u < lo || u >= hi {
		t.Fatalf("host uid %d outside %d..%d", u, lo, hi)
	}
}

func TestDistinctUIDPerBot(t *testing.T) {
	t.Parallel()
	need(t, LayerUID)
	a := start(t, "sleep:1h", Limits{})
	b := start(t, "sleep:1h", Limits{})
	a.line(t, "sleeping", 5*time.Second)
	b.line(t, "sleeping", 5*time.Second)
	if a.p.HostUID() == b.p.HostUID() {
		t.Fatalf("two bots share host uid %d", a.p.HostUID())
	}
	if got := processesOfUID(a.p.HostUID()); len(got) != 1 {
		t.Fatalf("processes of bot a's uid: %v", got)
	}
}

func TestFilesystemView(t *testing.T) {
	t.Parallel()
	need(t, LayerFiles)
	other := t.TempDir()
	secret := filepath.Join(other, "opponent-secret")
	if err := os.WriteFile(secret, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	arenaData := filepath.Join(filepath.Dir(wd), "go.mod") // the arena's own tree
	tests := []struct {
		path string
		ok   bool
	}{
		{"/root", false}, {"/etc/shadow", false}, {"/home", false}, {arenaData, false}, {secret, false},
		{other, false}, {stateDir(), false}, {"/etc/hostname", false}, {"/usr/bin", false},
		{"/proc/1/environ", false}, // pid 1 is the sandbox's init, not the machine's
		{"/etc/passwd", true}, {"/usr/lib", true}, {"/dev/urandom", true},
	}
	for _, tc := range tests {
		tc := tc
		t.Run(tc.path, func(t *testing.T) {
			t.Parallel()
			out, _ := act(t, "read:"+tc.path, Limits{})
			got := strings.Contains(out, " ok")
			if got != tc.ok {
				t.Fatalf("read %s: got %q, want ok=%v", tc.path, out, tc.ok)
			}
		})
	}
}

func TestRootHoldsOnlyTheView(t *testing.T) {
	t.Parallel()
	need(t, LayerFiles)
	out, _ := act(t, "ls:/", Limits{})
	allowed := map[string]bool{"dev": true, "etc": true, "proc": true, "tmp": true, "usr": true,
		"lib": true, "lib64": true, "lib32": true}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		name := strings.TrimPrefix(line, "ls ")
		if !allowed[name] {
			t.Errorf("unexpected entry in the bot's root: %q", name)
		}
	}
}

func TestWritesStayInWorkDir(t *testing.T) {
	t.Parallel()
	need(t, LayerFiles)
	exe, _ := os.Executable()
	for _, path := range []string{"/etc/passwd", "/newfile", exe, "/dev/evil", "/proc/sys/kernel/hostname"} {
		path := path
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			out, _ := act(t, "write:"+path, Limits{})
			if !strings.Contains(out, "fail") {
				t.Fatalf("write %s: %q", path, out)
			}
		})
	}
	t.Run("workdir", func(t *testing.T) {
		t.Parallel()
		var wd string
		out, _ := act(t, "write:WORK/own", Limits{}, func(s *Spec) {
			wd = s.WorkDir
			s.Env = []string{actEnv + "=write:" + filepath.Join(s.WorkDir, "own")}
		})
		if !strings.Contains(out, " ok") {
			t.Fatalf("write in own work dir (%s): %q", wd, out)
		}
	})
	t.Run("exec from work dir", func(t *testing.T) {
		t.Parallel()
		need(t, LayerWorkDir)
		out, _ := act(t, "exec", Limits{}, func(s *Spec) { s.Env = []string{actEnv + "=exec:" + s.WorkDir} })
		if !strings.Contains(out, "exec fail") {
			t.Fatalf("a program written into the work dir ran: %q", out)
		}
	})
}

func TestNoNetwork(t *testing.T) {
	t.Parallel()
	need(t, LayerNetNS)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			got <- "tcp connection arrived"
			c.Close()
		}
	}()
	udp, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	go func() {
		var b [64]byte
		if _, _, err := udp.ReadFrom(b[:]); err == nil {
			got <- "udp packet arrived"
		}
	}()
	for _, a := range []string{"tcp:" + ln.Addr().String(), "tcp:1.1.1.1:443", "udp:" + udp.LocalAddr().String()} {
		out, _ := act(t, a, Limits{})
		if strings.Contains(out, " ok") && strings.HasPrefix(a, "tcp") {
			t.Errorf("%s: %q", a, out)
		}
	}
	select {
	case g := <-got:
		t.Fatal(g)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestOtherUnixSocketsUnreachable(t *testing.T) {
	t.Parallel()
	need(t, LayerFiles)
	// The opponent's plugin socket lives in the opponent's work dir.
	opp := start(t, "sleep:1h", Limits{})
	opp.line(t, "sleeping", 5*time.Second)
	sock := filepath.Join(opp.p.spec.WorkDir, "plugin.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	out, _ := act(t, "unix:"+sock, Limits{})
	if !strings.Contains(out, "fail") {
		t.Fatalf("reached the opponent's socket: %q", out)
	}
}

func TestForbiddenSystemCalls(t *testing.T) {
	t.Parallel()
	need(t, LayerSeccomp)
	for _, sc := range []string{"ptrace", "keyctl", "mount", "unshare", "bpf", "io_uring", "perf", "x32"} {
		sc := sc
		t.Run(sc, func(t *testing.T) {
			t.Parallel()
			out, p := act(t, "syscall:"+sc, Limits{})
			if r := p.Reason(); r.Kind != KindSyscall {
				t.Fatalf("%s: reason %v, output %q", sc, r, out)
			}
		})
	}
	t.Run("clone new namespace", func(t *testing.T) {
		t.Parallel()
		out, _ := act(t, "syscall:clone-newns", Limits{})
		if !strings.Contains(out, "fail") {
			t.Fatalf("clone with a new network namespace: %q", out)
		}
	})
	for _, fam := range []string{"netlink", "packet", "vsock", "raw", "alg"} {
		fam := fam
		t.Run("socket "+fam, func(t *testing.T) {
			t.Parallel()
			out, _ := act(t, "socket:"+fam, Limits{})
			if !strings.Contains(out, "fail") {
				t.Fatalf("opened a %s socket: %q", fam, out)
			}
		})
	}
}

func TestCannotTouchTheHost(t *testing.T) {
	t.Parallel()
	need(t, LayerPIDNS)
	out, p := act(t, "kill:"+strconv.Itoa(os.Getpid()), Limits{})
	if !strings.Contains(out, "fail") {
		t.Fatalf("killed the host? %q", out)
	}
	_ = p
	// kill(-1) reaches only the bot's own processes. The victim sleeps an hour: one that sleeps
	// less ends on its own while a slow machine (CI's emulated VM) starts the killer (CI21).
	victim := start(t, "sleep:1h", Limits{})
	victim.line(t, "sleeping", 5*time.Second)
	act(t, "killall", Limits{})
	select {
	case <-victim.p.Done():
		t.Fatalf("kill(-1) in one sandbox killed another sandbox: %v", victim.p.Reason())
	case <-time.After(100 * time.Millisecond):
	}
}

func TestKillIsTotal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ act, ready string }{
		{"spin", "spinning"}, {"stop", "stopping"}, {"noterm", "ignoring"}, {"setsid", "child"},
		{"forkbomb", "fork refused"}, {"sleep:1h", "sleeping"},
	} {
		tc := tc
		t.Run(tc.act, func(t *testing.T) {
			t.Parallel()
			r := start(t, tc.act, Limits{Processes: 24})
			r.line(t, tc.ready, 10*time.Second)
			t0 := time.Now()
			if err := r.p.Kill(); err != nil {
				t.Fatal(err)
			}
			// No grace period, even for a bot that ignores SIGTERM or sleeps an hour.
			slack.Within(t, "kill", time.Since(t0), 0, 500*time.Millisecond)
			r.wait(t, time.Second) // stretched by wait itself
			assertNoLeftovers(t, r.p)
			if k := r.p.Reason().Kind; k != KindKilled {
				t.Errorf("reason %v", r.p.Reason())
			}
		})
	}
}

func TestNothingOutlivesTheMainProcess(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"orphan", "setsid:exit"} {
		a := a
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			r := start(t, a, Limits{})
			// The child holds stdout too: the pipes must still reach EOF once the main exits.
			r.wait(t, 5*time.Second)
			assertNoLeftovers(t, r.p)
			if k := r.p.Reason(); k.Kind != KindExited || k.Status != 0 {
				t.Fatalf("reason %v", k)
			}
		})
	}
}

func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	need(t, LayerMemory)
	for _, a := range []string{"memory:400", "memsplit:30"} {
		a := a
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			out, p := act(t, a, Limits{MemoryBytes: 96 << 20})
			if r := p.Reason(); r.Kind != KindMemoryLimit {
				t.Fatalf("reason %v, output %q", r, out)
			}
			if u := p.Usage(); u.PeakBytes < 64<<20 || u.PeakBytes > 100<<20 || u.OOMKills == 0 {
				t.Fatalf("usage %+v", u)
			}
		})
	}
}

func TestProcessAndThreadLimits(t *testing.T) {
	t.Parallel()
	need(t, LayerPids)
	t.Run("threads", func(t *testing.T) {
		t.Parallel()
		out, p := act(t, "threads", Limits{Processes: 40})
		if r := p.Reason(); r.Kind != KindExited || r.Status == 0 || !strings.Contains(r.Detail, "process limit") {
			t.Fatalf("reason %v output %q", r, out)
		}
	})
	t.Run("forkbomb", func(t *testing.T) {
		t.Parallel()
		r := start(t, "forkbomb", Limits{Processes: 30})
		r.line(t, "fork refused", 10*time.Second)
		if n := len(processesOfUID(r.p.HostUID())); n > 30 {
			t.Fatalf("%d processes with a limit of 30", n)
		}
		if u := r.p.Usage(); u.ProcessLimitHits == 0 {
			t.Fatalf("no refused fork counted: %+v", u)
		}
	})
}

func TestCPULimits(t *testing.T) {
	t.Parallel()
	need(t, LayerCPU)
	t.Run("total", func(t *testing.T) {
		t.Parallel()
		_, p := act(t, "spinall", Limits{CPUSeconds: 1, CPUs: 2})
		if r := p.Reason(); r.Kind != KindCPULimit {
			t.Fatalf("reason %v", r)
		}
		// Stopped soon after it passed the limit (the watch ticks every 100ms, on 2 CPUs; on a
		// loaded machine the watch itself waits for a CPU while the spinners still get theirs).
		u := p.Usage()
		if u.CPU < time.Second {
			t.Fatalf("cpu limit of 1s acted at %v", u.CPU)
		}
		slack.Within(t, "the cpu limit of 1s acting (in CPU time)", u.CPU, time.Second, 300*time.Millisecond)
	})
	t.Run("quota", func(t *testing.T) {
		t.Parallel()
		r := start(t, "spinall", Limits{CPUs: 0.25})
		r.line(t, "spinning", 5*time.Second)
		s0 := r.p.Snapshot()
		time.Sleep(800 * time.Millisecond)
		wall, cpu := r.p.Snapshot().Sub(s0)
		if cpu > wall/2 || cpu <= 0 {
			t.Fatalf("quota 0.25 CPU: used %v in %v", cpu, wall)
		}
	})
}

func TestWallTimeLimit(t *testing.T) {
	t.Parallel()
	_, p := act(t, "sleep:1h", Limits{WallTime: 300 * time.Millisecond})
	if r := p.Reason(); r.Kind != KindTimeLimit {
		t.Fatalf("reason %v", r)
	}
}

func TestDiskAndFileLimits(t *testing.T) {
	t.Parallel()
	need(t, LayerWorkDir)
	var wd string
	out, _ := act(t, "disk", Limits{DiskBytes: 8 << 20, FileBytes: 4 << 20}, func(s *Spec) {
		wd = s.WorkDir
		s.Env = []string{actEnv + "=disk:" + s.WorkDir}
	})
	if !strings.Contains(out, "disk wrote 4 MiB") && !strings.Contains(out, "disk wrote 3 MiB") {
		t.Fatalf("file size limit: %q", out)
	}
	_ = wd
}

func TestOpenFilesLimit(t *testing.T) {
	t.Parallel()
	out, _ := act(t, "fds", Limits{OpenFiles: 64})
	if !strings.Contains(out, "too many open files") {
		t.Fatalf("fds: %q", out)
	}
}

func TestOutputLimit(t *testing.T) {
	t.Parallel()
	for _, a := range []string{"flood", "flood:stderr"} {
		_, p := act(t, a, Limits{OutputBytes: 1 << 20})
		if r := p.Reason(); r.Kind != KindOutputLimit {
			t.Fatalf("%s: reason %v", a, r)
		}
	}
}

func TestExitReasons(t *testing.T) {
	t.Parallel()
	_, p := act(t, "exit:7", Limits{})
	if r := p.Reason(); r.Kind != KindExited || r.Status != 7 || r.String() != "exited with status 7" {
		t.Fatalf("reason %v", r)
	}
	var ee *ExitError
	if err := p.Wait(); !errors.As(err, &ee) || ee.Reason.Status != 7 {
		t.Fatalf("wait: %v", err)
	}
	_, p = act(t, "hello", Limits{})
	if err := p.Wait(); err != nil {
		t.Fatalf("clean exit: %v", err)
	}
	if u := p.Usage(); u.Wall <= 0 || u.CPU <= 0 || u.PeakBytes <= 0 {
		t.Fatalf("usage %+v", u)
	}
}

func TestStrictRefusesMissingLayer(t *testing.T) {
	pl := getPlan()
	saved := append([]Layer(nil), pl.report.Layers...)
	defer func() { pl.report.Layers = saved }()
	pl.report.set(LayerLandlock, false, "pretend the kernel has no Landlock")
	_, err := Start(Spec{Name: "strict", Path: "/bin/true", WorkDir: t.TempDir(), Strict: true})
	if !errors.Is(err, ErrStrict) || !strings.Contains(err.Error(), "landlock") {
		t.Fatalf("err %v", err)
	}
}

// The readings a host takes around every move come from files kept open: they must follow the
// tree as a fresh read of the same files does.
func TestSnapshotReadsTheCgroup(t *testing.T) {
	t.Parallel()
	need(t, LayerMemory, LayerCPU)
	r := start(t, "spinall", Limits{CPUs: 1})
	r.line(t, "spinning", 5*time.Second)
	s0 := r.p.Snapshot()
	time.Sleep(300 * time.Millisecond)
	s1 := r.p.Snapshot()
	cpu, _ := r.p.CPUTime()
	if s1.CPU <= s0.CPU || cpu < s1.CPU {
		t.Fatalf("CPU readings %v, %v, then %v: want them growing", s0.CPU, s1.CPU, cpu)
	}
	file := "memory.usage_in_bytes"
	if r.p.cg.v2[cgMemory] {
		file = "memory.current"
	}
	fresh := r.p.cg.readInt(cgMemory, file)
	if s1.MemoryBytes <= 0 || fresh <= 0 || s1.MemoryBytes > 2*fresh || fresh > 2*s1.MemoryBytes {
		t.Fatalf("memory from the open file %d, from a fresh read %d", s1.MemoryBytes, fresh)
	}
}
