//go:build !arenadegraded

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// plan is what this machine allows, found once by Probe and used by every Start.
type plan struct {
	report  *Report
	state   string
	rootDir string

	root                                        bool // euid 0: distinct uids, tmpfs work dirs
	userns, mountns, pidns, netns, ipcns, utsns bool
	cgroupns                                    bool
	seccomp                                     bool
	landlock                                    int
	cg                                          *cgroupPlan
	workTmpfs                                   bool
	// hides are kernel features this plan pretends missing (tests of older kernels).
	hides kernelHides
	// psi: the kernel measures CPU pressure per cgroup (cpu.pressure), see CPUPressure.
	psi bool
	// schedstat: the kernel keeps each thread's run-queue delay, see RunQueueDelay.
	schedstat bool
	fix       *fixer
}

var (
	planOnce sync.Once
	thePlan  *plan
)

func getPlan() *plan {
	planOnce.Do(func() { thePlan = probe() })
	return thePlan
}

// Probe finds which layers work on this machine, by trying them: it starts one real sandbox
// (a few milliseconds) with every layer, and drops a layer only when it fails, saying why. The
// result is computed once per process; it also cleans up what crashed arenas left behind.
func Probe() *Report {
	r := *getPlan().report
	r.Layers = append([]Layer(nil), r.Layers...)
	return &r
}

// bare is this plan without namespaces, cgroups, Landlock, the work-dir tmpfs or distinct uids
// (the bot keeps the arena's uid), and with seccomp only if keepSeccomp: what a laptop or a
// container leaves (degraded mode), or nothing at all for measuring the sandbox's cost.
func (p *plan) bare(keepSeccomp bool) *plan {
	q := *p
	q.userns, q.mountns, q.pidns, q.netns, q.ipcns, q.utsns = false, false, false, false, false, false
	q.cgroupns = false
	q.landlock = 0
	q.workTmpfs = false
	q.root = false
	q.seccomp = q.seccomp && keepSeccomp
	q.cg = newCgroupPlan()
	return &q
}

// cloneflags are the namespaces of a new sandbox; network keeps the host's network.
func (p *plan) cloneflags(network bool) uintptr {
	var f uintptr
	for _, x := range []struct {
		on   bool
		flag uintptr
	}{{p.userns, unix.CLONE_NEWUSER}, {p.mountns, unix.CLONE_NEWNS}, {p.pidns, unix.CLONE_NEWPID},
		{p.netns && !network, unix.CLONE_NEWNET}, {p.ipcns, unix.CLONE_NEWIPC}, {p.utsns, unix.CLONE_NEWUTS}} {
		if x.on {
			f |= x.flag
		}
	}
	return f
}

func probe() *plan { return probeWith(kernelHides{}) }

// probeWith is probe on a kernel without the features hides names.
func probeWith(hides kernelHides) *plan {
	p := &plan{report: &Report{}, hides: hides, fix: thisFixer()}
	rep := p.report
	for _, n := range layerOrder {
		rep.Layers = append(rep.Layers, Layer{Name: n})
	}
	rep.set(LayerEnv, true, "only the variables the caller passes")
	rep.set(LayerPdeath, true, "the sandbox dies with the arena (PR_SET_PDEATHSIG=SIGKILL)")
	p.root = os.Geteuid() == 0

	state, err := ensureState()
	if err != nil {
		for _, n := range layerOrder[1:] {
			if n != LayerPdeath {
				rep.set(n, false, "%v", err)
			}
		}
		return p
	}
	p.state, p.rootDir = state, filepath.Join(state, "root")
	if cr, err := Cleanup(); err != nil || cr != (CleanupReport{}) {
		rep.Notes = append(rep.Notes, "cleanup of crashed runs: "+cr.String())
	}

	// Landlock is a property of the kernel; the probe run below checks it can be applied.
	abi, err := landlockABI()
	if hides.NoLandlock {
		abi, err = 0, syscall.ENOSYS // what a kernel before 5.13 answers
	}
	if err == nil {
		p.landlock = abi
		if hides.LandlockABI > 0 && hides.LandlockABI < abi {
			p.landlock = hides.LandlockABI
		}
	} else {
		rep.set(LayerLandlock, false, "the kernel does not offer Landlock (%v)", err)
		rep.setFix(LayerLandlock, p.fix.landlock(err))
	}
	p.seccomp = true
	p.userns, p.mountns, p.pidns, p.netns, p.ipcns, p.utsns = true, true, true, true, true, true
	p.cgroupns = true
	p.cg = planCgroups(owner(), hides)
	if _, err := os.Stat("/proc/self/schedstat"); err == nil && !hides.Schedstat {
		p.schedstat = true
	}

	// Work directory tmpfs.
	if p.root {
		d, err := os.MkdirTemp(state, "probe-work-")
		if err == nil {
			undo, merr := mountWork(state, d, "probe", uidBase, uidBase, 1<<20, false)
			if merr == nil {
				undo()
				p.workTmpfs = true
			} else {
				err = merr
			}
			_ = os.Remove(d)
		}
		if err != nil {
			rep.set(LayerWorkDir, false, "cannot mount a tmpfs on the work dir (%v); the bot writes into a plain directory, bounded only by the file size rlimit", err)
		}
	} else {
		rep.set(LayerWorkDir, false, "not root: cannot mount a size-limited tmpfs; the bot writes into a plain directory, bounded only by the file size rlimit")
		rep.setFix(LayerWorkDir, p.fix.sudo())
	}

	// Try a real sandbox; drop what fails and try again.
	why := map[string]string{}
	for attempt := 0; attempt < 12; attempt++ {
		step, err := p.tryRun()
		if err == nil {
			break
		}
		layer := p.disable(step, err)
		if layer == "" {
			why["all"] = fmt.Sprintf("%s: %v", step, err)
			p.userns, p.mountns, p.pidns, p.netns, p.ipcns, p.utsns, p.seccomp, p.landlock = false, false, false, false, false, false, false, 0
			p.cgroupns = false
			if _, err := p.tryRun(); err != nil {
				why["all"] += fmt.Sprintf("; even a bare run fails: %v", err)
			}
			break
		}
		why[layer] = fmt.Sprintf("%s: %v", step, err)
	}
	p.fill(why)
	return p
}

// disable turns off the layer a failed step belongs to and returns its name ("" if unknown).
func (p *plan) disable(step string, err error) string {
	switch step {
	case "clone":
		// Find which namespace the kernel refuses, one at a time.
		for _, ns := range []struct {
			on    *bool
			name  string
			flags uintptr
		}{{&p.userns, LayerUserNS, unix.CLONE_NEWUSER}, {&p.pidns, LayerPIDNS, unix.CLONE_NEWPID},
			{&p.mountns, LayerMountNS, unix.CLONE_NEWNS}, {&p.netns, LayerNetNS, unix.CLONE_NEWNET},
			{&p.ipcns, LayerIPCNS, unix.CLONE_NEWIPC}, {&p.utsns, LayerUTSNS, unix.CLONE_NEWUTS}} {
			if *ns.on {
				*ns.on = false
				if _, err := p.tryRun(); err == nil || !strings.HasPrefix(err.Error(), "clone") {
					return ns.name
				}
				*ns.on = true
			}
		}
		// No single namespace is at fault: drop the user namespace first, then all.
		if p.userns {
			p.userns = false
			return LayerUserNS
		}
		if p.mountns || p.pidns || p.netns || p.ipcns || p.utsns {
			p.mountns, p.pidns, p.netns, p.ipcns, p.utsns = false, false, false, false, false
			return LayerPIDNS
		}
		return ""
	case "filesystem view":
		if p.mountns {
			p.mountns = false
			return LayerMountNS
		}
	case "uts namespace":
		p.utsns = false
		return LayerUTSNS
	case "cgroup namespace":
		p.cgroupns = false
		return LayerCgroupNS
	case "landlock":
		if p.landlock > 0 {
			p.landlock = 0
			return LayerLandlock
		}
	case "seccomp", "no_new_privs":
		if p.seccomp {
			p.seccomp = false
			return LayerSeccomp
		}
	case "cgroup":
		p.cg = newCgroupPlan()
		for _, r := range cgResources {
			p.cg.why[r] = err.Error()
		}
		return LayerMemory
	}
	return ""
}

// probeTimeout bounds the wait for the probe's init.
const probeTimeout = 30 * time.Second

// tryRun starts one sandbox in probe mode and reports the step that failed.
func (p *plan) tryRun() (string, error) {
	work, err := os.MkdirTemp(p.state, "probe-")
	if err != nil {
		return "work dir", err
	}
	defer os.RemoveAll(work)
	spec := Spec{Name: "probe", Path: "/bin/true", WorkDir: work}
	cfg, err := p.config(spec, DefaultLimits(), nil)
	if err != nil {
		return "config", err
	}
	cfg.Probe = true
	var cg *cgroup
	if len(p.cg.base) > 0 {
		cg, err = p.cg.newCgroup(owner(), "probe", DefaultLimits())
		if err != nil {
			return "cgroup", err
		}
		defer cg.remove()
	}
	var slot *uidSlot
	if p.root {
		if slot, err = takeSlot(p.state); err != nil {
			return "uid", err
		}
		defer slot.release()
		p.uids(cfg, slot)
	}
	null, _ := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	defer null.Close()
	run, err := p.startInit(cfg, slot, cg, null, null, nil)
	if err != nil {
		return run.step, err
	}
	// A start takes milliseconds, but the first one on a cold, slow machine (an emulated VM
	// reading the binary over its shared filesystem) took over 5 s: a slow start must not
	// make the report drop every layer.
	ev := run.next(probeTimeout)
	_ = run.cmd.Process.Kill()
	_ = run.cmd.Wait()
	switch {
	case ev.Event == "probe":
		if p.landlock > 0 && ev.Landlock == 0 {
			return "landlock", errors.New("not applied")
		}
		return "", nil
	case ev.Event == "error":
		return ev.Step, errors.New(ev.Error)
	}
	return "init", fmt.Errorf("the init ended without a word (%s)", run.cmd.ProcessState)
}

// fill writes every layer's line of the report from the final plan.
func (p *plan) fill(why map[string]string) {
	rep := p.report
	because := func(layer, def string) string {
		if w := why[layer]; w != "" {
			return w
		}
		if w := why["all"]; w != "" {
			return w
		}
		return def
	}
	ns := func(layer string, on bool, what string) {
		if on {
			rep.set(layer, true, "%s", what)
		} else {
			rep.set(layer, false, "%s", because(layer, "the kernel refused it"))
		}
	}
	ns(LayerUserNS, p.userns, "the bot's ids map to unprivileged host ids; it has no capability outside")
	ns(LayerPIDNS, p.pidns, "the bot sees only its own processes; killing its init kills them all")
	ns(LayerMountNS, p.mountns, "private mounts")
	ns(LayerNetNS, p.netns, "no interface but a downed loopback: no network at all")
	ns(LayerIPCNS, p.ipcns, "private SysV IPC and message queues")
	ns(LayerUTSNS, p.utsns, "private hostname")
	ns(LayerCgroupNS, p.cgroupns, "the bot's cgroup is its root: /proc/self/cgroup shows no host path")
	if p.mountns {
		rep.set(LayerFiles, true, "a read-only tmpfs root holding only the bot's files, its runtime and system libraries; the host's tree is detached")
	} else {
		rep.set(LayerFiles, false, "no mount namespace: the bot sees the host's files (%s)", because(LayerMountNS, "the kernel refused it"))
		if p.landlock > 0 {
			rep.set(LayerFiles, false, "no mount namespace (%s); Landlock still limits reads to the bot's files and runtime", because(LayerMountNS, "refused"))
		}
	}
	if p.root {
		rep.set(LayerUID, true, "each bot runs as its own host uid (from %d up), never the arena's", uidBase)
	} else {
		rep.set(LayerUID, false, "the arena is not root: bots run as the arena's own uid")
		rep.setFix(LayerUID, p.fix.sudo())
	}
	if p.workTmpfs {
		rep.set(LayerWorkDir, true, "a tmpfs of the disk limit, owned by the bot, noexec, at the same path inside and out")
	}
	if !p.hides.PSI && p.cg.has(cgCPU) {
		if d := p.cg.base[cgCPU]; d != "" {
			_, err := os.Stat(filepath.Join(d, owner(), "cpu.pressure"))
			p.psi = err == nil
		}
	}
	for _, c := range []struct{ layer, res, what string }{
		{LayerMemory, cgMemory, "memory limit, peak and OOM kills"},
		{LayerPids, cgPids, "process and thread limit"},
		{LayerCPU, cgCPU, "CPU quota and total CPU time"},
		{LayerTreeKill, cgFreezer, "kill the whole tree at once"},
	} {
		if p.cg.has(c.res) {
			v := "v1"
			if p.cg.v2[c.res] {
				v = "v2"
			}
			what := c.what
			if c.res == cgFreezer {
				what = killWords[p.cg.kill]
			}
			if c.res == cgCPU {
				what += p.pressureWords()
			}
			if c.res == cgMemory && p.cg.v2[cgMemory] {
				if _, err := os.Stat(filepath.Join(p.cg.base[cgMemory], owner(), "memory.peak")); err != nil {
					what += "; no memory.peak before Linux 5.19: the peak is the largest process's peak RSS"
				}
			}
			rep.set(c.layer, true, "cgroup %s at %s: %s", v, p.cg.base[c.res], what)
		} else {
			rep.set(c.layer, false, "%s", p.cg.why[c.res])
			rep.setFix(c.layer, p.cg.fix[c.res])
		}
	}
	if p.cg.has(cgCPU) && !p.cg.has(cgCPUAcct) {
		rep.set(LayerCPU, false, "CPU quota works but no cpuacct to measure the total: %s", p.cg.why[cgCPUAcct])
		rep.setFix(LayerCPU, p.cg.fix[cgCPUAcct])
	}
	rep.Notes = append(rep.Notes, p.cg.notes...)
	if p.cg.killNote != "" {
		rep.Notes = append(rep.Notes, "cgroup kill: "+p.cg.killNote)
	}
	for _, c := range []struct {
		layer string
		on    bool
	}{{LayerUserNS, p.userns}, {LayerPIDNS, p.pidns}, {LayerMountNS, p.mountns}, {LayerFiles, p.mountns},
		{LayerNetNS, p.netns}, {LayerIPCNS, p.ipcns}, {LayerUTSNS, p.utsns}} {
		if !c.on {
			rep.setFix(c.layer, p.fix.userNamespaces())
		}
	}
	if !p.cgroupns {
		rep.setFix(LayerCgroupNS, "upgrade to Linux 4.6 or later")
	}
	if p.root {
		rep.set(LayerRlimits, true, "core 0, cpu seconds, file size, open files, processes per uid, no locked memory")
	} else {
		rep.set(LayerRlimits, true, "core 0, cpu seconds, file size, open files, no locked memory (no process limit: the bot shares the arena's uid)")
	}
	if p.seccomp {
		rep.set(LayerSeccomp, true, "architecture checked; ptrace, keyrings, mount, namespaces, bpf, perf, io_uring, kexec, modules and more kill the bot (SIGSYS); only unix and IP sockets open")
	} else {
		rep.set(LayerSeccomp, false, "%s", because(LayerSeccomp, "seccomp filters are refused"))
	}
	if p.landlock > 0 {
		extra := ""
		if p.landlock >= 4 {
			extra += "; no TCP bind or connect"
		} else if p.netns {
			extra += "; no TCP rules before ABI 4 (Linux 6.7): the network namespace alone keeps the bot off the network"
		} else {
			extra += "; no TCP rules before ABI 4 (Linux 6.7) and no network namespace: the bot can reach the network"
		}
		if p.landlock >= 6 {
			extra += "; no signals or abstract sockets outside the bot"
		} else if p.pidns {
			extra += "; no signal scoping before ABI 6 (Linux 6.12): the PID namespace hides every other process from the bot"
		} else {
			extra += "; no signal scoping before ABI 6 (Linux 6.12) and no PID namespace: the bot can signal processes of its own uid"
		}
		rep.set(LayerLandlock, true, "ABI %d: read only its files and runtime, write only its work dir%s", p.landlock, extra)
	} else {
		if w := because(LayerLandlock, ""); w != "" {
			rep.set(LayerLandlock, false, "%s", w)
		}
		l, _ := rep.Layer(LayerLandlock)
		rep.set(LayerLandlock, false, "%s; %s", l.Detail, p.withoutLandlock())
	}
	if !p.seccomp {
		rep.setFix(LayerSeccomp, "a kernel with CONFIG_SECCOMP_FILTER; in a container: --security-opt seccomp=unconfined")
	}
	if p.pidns {
		rep.set(LayerSubreaper, true, "not needed: the PID namespace holds the tree; its own process group as well")
	} else {
		rep.set(LayerSubreaper, true, "the init is a child subreaper and the tree's own process group: orphans come back to it and die with it")
	}
	mem := "none"
	if p.cg.has(cgMemory) {
		mem = "cgroup"
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("memory accounting: %s; state in %s", mem, p.state))
}

// killWords says how the cgroup kill works for each kill method.
var killWords = map[string]string{
	killV2:   "kill the whole tree at once (cgroup.kill)",
	freezeV2: "freeze the tree, kill every process, thaw (cgroup.freeze; this kernel has no cgroup.kill)",
	freezeV1: "freeze the tree, kill every process, thaw (v1 freezer)",
}

// withoutLandlock says which layers stand in for a missing Landlock, and what is left open.
func (p *plan) withoutLandlock() string {
	files := "the filesystem view (mount namespace) still shows the bot only its files and runtime, and only its work dir is writable"
	if !p.mountns {
		files = "no mount namespace either: only file permissions keep the bot from the host's files"
	}
	net := "the network namespace keeps it off the network"
	if !p.netns {
		net = "no network namespace either: the bot can reach the network"
	}
	return files + "; " + net
}

// pressureWords adds to the CPU layer's line whether the kernel measures the time the bot's
// tree waited for a CPU (what a fair CPU clock subtracts), and what replaces it when not.
func (p *plan) pressureWords() string {
	const noRunQueue = "; no run-queue delay per thread (/proc/<pid>/schedstat, CONFIG_SCHED_INFO): a move's wall-time cap on the CPU clock counts the machine's load too"
	if p.psi {
		if !p.schedstat {
			return "; time waiting for a CPU (cpu.pressure)" + noRunQueue
		}
		return "; time waiting for a CPU (cpu.pressure)"
	}
	why := "no pressure stall information (Linux 4.20 with CONFIG_PSI, not booted with psi=0)"
	switch _, err := os.Stat("/proc/pressure/cpu"); {
	case p.hides.PSI:
		why = "pressure stall information hidden"
	case err == nil && !p.cg.v2[cgCPU]:
		why = "cgroup v1 keeps no CPU pressure per cgroup"
	case err == nil:
		why = "the kernel keeps no CPU pressure per cgroup (cgroup.pressure off)"
	}
	if !p.schedstat {
		return "; " + why + noRunQueue
	}
	return "; " + why + ": a fair clock reads the wait for a CPU per process (run-queue delay) instead"
}

// uids fills the ids the init maps and the bot runs as.
func (p *plan) uids(cfg *initConfig, slot *uidSlot) {
	switch {
	case slot == nil:
		cfg.BotUID, cfg.BotGID = -1, -1
	case p.userns:
		cfg.BotUID, cfg.BotGID = 1000, 1000
	default:
		cfg.BotUID, cfg.BotGID = slot.botUID(), slot.botUID()
	}
}

// initRunner is one started init, with its status stream.
type initRunner struct {
	cmd    *exec.Cmd
	step   string
	events chan initEvent
	eof    chan struct{} // closed when the status pipe ends
	exit   *initEvent    // the exit event, if any; read after eof
}

func (r *initRunner) next(timeout time.Duration) initEvent {
	select {
	case ev, ok := <-r.events:
		if ok {
			return ev
		}
	case <-time.After(timeout):
		return initEvent{Event: "error", Step: "init", Error: "no answer from the sandbox init within " + timeout.String()}
	}
	return initEvent{}
}

// sysProcAttr is how the host clones the init.
func (p *plan) sysProcAttr(slot *uidSlot, network bool) *syscall.SysProcAttr {
	sys := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL, Cloneflags: p.cloneflags(network)}
	if p.userns {
		if slot != nil {
			sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: slot.initUID(), Size: 1}, {ContainerID: 1000, HostID: slot.botUID(), Size: 1}}
			sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: slot.initUID(), Size: 1}, {ContainerID: 1000, HostID: slot.botUID(), Size: 1}}
			sys.GidMappingsEnableSetgroups = true
			// Drop the host's supplementary groups (root's!) inside the namespace.
			sys.Credential = &syscall.Credential{Uid: 0, Gid: 0, Groups: []uint32{}}
		} else {
			sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
			sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		}
	}
	return sys
}
