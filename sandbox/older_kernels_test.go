//go:build linux && !arenadegraded

package sandbox

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Older and other kernels, forced on this one: each missing feature degrades to the next best
// layer, the report says so, and what the layer was for still holds.

// readyWait bounds the wait for an act's first line: milliseconds here, but a fork bomb on an
// emulated VM (the cgroup v2 leg) took over 10 s to print.
const readyWait = 60 * time.Second

// hidingPlan probes this machine again as if the kernel lacked what h hides.
func hidingPlan(t *testing.T, h kernelHides) *plan {
	t.Helper()
	pl := probeWith(h)
	var b strings.Builder
	_ = pl.report.Write(&b)
	t.Log("\n" + b.String())
	return pl
}

// No cgroup.kill (before Linux 5.14), no freezer at all (v2 before 5.2, no v1 freezer): the
// arena kills what the cgroups list until none is left, and the tree still dies whole.
func TestNoCgroupKillOrFreezer(t *testing.T) {
	need(t, LayerTreeKill, LayerPids)
	pl := hidingPlan(t, kernelHides{CgroupKill: true, CgroupFreeze: true, V1Freezer: true})
	l, _ := pl.report.Layer(LayerTreeKill)
	if l.Active || !strings.Contains(l.Detail, "kills what its cgroups list") || l.Fix == "" {
		t.Fatalf("cgroup kill layer: %+v", l)
	}
	if !pl.report.Active(LayerPids) || !pl.report.Active(LayerMemory) {
		t.Fatal("hiding the kill took other cgroup layers with it")
	}
	for _, tc := range []struct{ act, ready string }{{"forkbomb", "fork refused"}, {"setsid", "child"}, {"stop", "stopping"}} {
		tc := tc
		t.Run(tc.act, func(t *testing.T) {
			r := startOn(t, pl, tc.act, Limits{Processes: 24})
			r.line(t, tc.ready, readyWait)
			if r.p.cg.kill != killByWalk {
				t.Fatalf("the process's cgroup kills by %q", r.p.cg.kill)
			}
			if err := r.p.Kill(); err != nil {
				t.Fatal(err)
			}
			r.wait(t, readyWait)
			assertNoLeftovers(t, r.p)
		})
	}
}

// No cgroup.kill (Linux 5.10 and older): the freezer stops the tree, every process is
// killed, the tree is thawed.
func TestNoCgroupKillFreezes(t *testing.T) {
	need(t, LayerTreeKill, LayerPids)
	pl := hidingPlan(t, kernelHides{CgroupKill: true})
	l, _ := pl.report.Layer(LayerTreeKill)
	want := freezeV1
	if pl.cg.v2[cgFreezer] {
		want = freezeV2
	}
	if !l.Active || pl.cg.kill != want || !strings.Contains(l.Detail, "freeze the tree") {
		t.Fatalf("kill by %q, want %q; layer %+v", pl.cg.kill, want, l)
	}
	if want == freezeV2 && !strings.Contains(strings.Join(pl.report.Notes, "\n"), "no cgroup.kill") {
		t.Errorf("notes %q do not say the kernel has no cgroup.kill", pl.report.Notes)
	}
	for _, tc := range []struct{ act, ready string }{{"forkbomb", "fork refused"}, {"setsid", "child"}} {
		tc := tc
		t.Run(tc.act, func(t *testing.T) {
			r := startOn(t, pl, tc.act, Limits{Processes: 24})
			r.line(t, tc.ready, readyWait)
			if err := r.p.Kill(); err != nil {
				t.Fatal(err)
			}
			r.wait(t, readyWait)
			assertNoLeftovers(t, r.p)
		})
	}
}

// Without a PID namespace as well, only the cgroup walk and the process group remain: a
// fork bomb still dies whole.
func TestNoCgroupKillNoPIDNamespace(t *testing.T) {
	need(t, LayerTreeKill, LayerPids)
	pl := hidingPlan(t, kernelHides{CgroupKill: true, CgroupFreeze: true, V1Freezer: true})
	pl.pidns = false
	for _, tc := range []struct{ act, ready string }{{"forkbomb", "fork refused"}, {"stop", "stopping"}} {
		tc := tc
		t.Run(tc.act, func(t *testing.T) {
			r := startOn(t, pl, tc.act, Limits{Processes: 24})
			r.line(t, tc.ready, readyWait)
			if err := r.p.Kill(); err != nil {
				t.Fatal(err)
			}
			r.wait(t, readyWait)
			assertNoLeftovers(t, r.p)
			if left := r.p.cg.procs(); len(left) > 0 {
				t.Fatalf("processes left in the cgroup: %v", left)
			}
		})
	}
}

// Landlock ABI 1 to 3 (Linux 5.13 to 6.6): no TCP rules and no signal scoping; ABI 4 and 5
// (Linux 6.7 to 6.11): TCP rules but no signal scoping. The report says the network and PID
// namespaces take over, and the bot still reaches nothing, signals nothing of the host's, and
// writes only its work dir.
func TestOlderLandlock(t *testing.T) {
	need(t, LayerLandlock, LayerNetNS, LayerPIDNS)
	kernel, _ := landlockABI()
	if kernel < 5 {
		t.Logf("this kernel's Landlock is ABI %d already: higher ABIs are tested as %d", kernel, kernel)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	for abi := 1; abi <= 5; abi++ {
		pl := hidingPlan(t, kernelHides{LandlockABI: abi})
		l, _ := pl.report.Layer(LayerLandlock)
		want := []string{"no signal scoping before ABI 6", "the PID namespace hides every other process"}
		if min(abi, kernel) < 4 {
			want = append(want, "no TCP rules before ABI 4", "network namespace alone")
		} else {
			want = append(want, "no TCP bind or connect")
		}
		if !l.Active || !strings.Contains(l.Detail, fmt.Sprintf("ABI %d:", min(abi, kernel))) {
			t.Fatalf("ABI %d: landlock layer %+v", abi, l)
		}
		for _, w := range want {
			if !strings.Contains(l.Detail, w) {
				t.Fatalf("ABI %d: landlock layer %q lacks %q", abi, l.Detail, w)
			}
		}
		r := startOn(t, pl, "tcp:"+ln.Addr().String(), Limits{})
		out := r.wait(t, 20*time.Second)
		if strings.Contains(out, " ok") {
			t.Fatalf("ABI %d: the bot reached the host: %q", abi, out)
		}
		if got := r.p.landlock; got != min(abi, kernel) {
			t.Errorf("the init applied Landlock ABI %d, want %d", got, min(abi, kernel))
		}
		// Writes outside the work dir are still refused at every ABI.
		r2 := startOn(t, pl, "write:/tmp/arena-landlock-escape", Limits{})
		if out := r2.wait(t, 20*time.Second); strings.Contains(out, " ok") {
			t.Fatalf("ABI %d: %q", abi, out)
		}
		// Without signal scoping, the PID namespace keeps the host's processes out of reach.
		r3 := startOn(t, pl, "kill:"+strconv.Itoa(os.Getpid()), Limits{})
		if out := r3.wait(t, 20*time.Second); !strings.Contains(out, "kill ") || strings.Contains(out, " ok") {
			t.Fatalf("ABI %d: %q", abi, out)
		}
	}
}

// No Landlock at all (before Linux 5.13, or not in the kernel's lsm= list): the report says
// so with the fix, names the layers that stand in for it (the filesystem view, the network
// namespace), and those still keep the bot from the host's files and the network.
func TestNoLandlock(t *testing.T) {
	need(t, LayerFiles, LayerMountNS, LayerNetNS)
	pl := hidingPlan(t, kernelHides{NoLandlock: true})
	l, _ := pl.report.Layer(LayerLandlock)
	if l.Active || pl.landlock != 0 || !strings.Contains(l.Detail, "does not offer Landlock") ||
		!strings.Contains(l.Detail, "the filesystem view (mount namespace) still shows the bot only its files") ||
		!strings.Contains(l.Detail, "the network namespace keeps it off the network") || !strings.Contains(l.Fix, "Linux 5.13") {
		t.Fatalf("landlock layer: %+v", l)
	}
	if !pl.report.Active(LayerFiles) || !pl.report.Active(LayerSeccomp) {
		t.Fatal("hiding Landlock took other layers with it")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{"tcp:" + ln.Addr().String(), "write:/tmp/arena-landlock-escape", "read:" + secret} {
		r := startOn(t, pl, a, Limits{})
		out := r.wait(t, 20*time.Second)
		if !strings.Contains(out, strings.SplitN(a, ":", 2)[0]+" ") || strings.Contains(out, " ok") {
			t.Fatalf("%s without Landlock: %q", a, out)
		}
		if r.p.landlock != 0 {
			t.Fatalf("the init applied Landlock ABI %d with Landlock hidden", r.p.landlock)
		}
	}
}

// No run-queue delay per thread (a kernel without CONFIG_SCHED_INFO): RunQueueDelay says it
// has none, rather than a delay of zero, and the CPU layer says a move's wall-time cap then
// counts the machine's load too.
func TestNoSchedstat(t *testing.T) {
	need(t, LayerCPU)
	pl := hidingPlan(t, kernelHides{Schedstat: true})
	l, _ := pl.report.Layer(LayerCPU)
	if !l.Active || !strings.Contains(l.Detail, "no run-queue delay per thread") {
		t.Fatalf("cpu layer: %+v", l)
	}
	r := startOn(t, pl, "sleep:1h", Limits{})
	r.line(t, "sleeping", readyWait)
	if d, ok := r.p.RunQueueDelay(); ok {
		t.Fatalf("RunQueueDelay answered %v with schedstat hidden", d)
	}
	// The same on the real plan reads the delay (this kernel keeps schedstat).
	r2 := start(t, "sleep:1h", Limits{})
	r2.line(t, "sleeping", readyWait)
	if _, ok := r2.p.RunQueueDelay(); !ok {
		t.Fatal("RunQueueDelay has no reading on this kernel")
	}
}

// No pressure stall information (before 4.20, CONFIG_PSI off, psi=0, or cgroup v1): the CPU
// layer says the fair clock's wait comes from elsewhere, and CPUPressure says it has none.
func TestNoPSI(t *testing.T) {
	need(t, LayerCPU)
	pl := hidingPlan(t, kernelHides{PSI: true})
	l, _ := pl.report.Layer(LayerCPU)
	if !l.Active || !strings.Contains(l.Detail, "pressure stall information hidden") {
		t.Fatalf("cpu layer: %+v", l)
	}
	r := startOn(t, pl, "sleep:1h", Limits{})
	r.line(t, "sleeping", readyWait)
	if _, ok := r.p.CPUPressure(); ok {
		t.Fatal("CPUPressure answered with PSI hidden")
	}
}

// Where the kernel keeps CPU pressure per cgroup (cgroup v2 with PSI), CPUPressure reads it;
// elsewhere (cgroup v1, as on this project's CI machine) the report says it does not.
func TestCPUPressure(t *testing.T) {
	need(t, LayerCPU)
	r := start(t, "spin", Limits{})
	r.line(t, "spinning", readyWait)
	w, ok := r.p.CPUPressure()
	l, _ := Probe().Layer(LayerCPU)
	if ok != getPlan().psi || ok != strings.Contains(l.Detail, "(cpu.pressure)") {
		t.Fatalf("CPUPressure ok=%v, plan psi=%v, report %q", ok, getPlan().psi, l.Detail)
	}
	if ok && w < 0 {
		t.Fatalf("CPU pressure %v", w)
	}
	t.Logf("cpu pressure %v (ok %v): %s", w, ok, l.Detail)
}
