//go:build linux && !arenadegraded

package sandbox

import (
	"path"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// fakeKernel is a cgroup v2 filesystem in memory that keeps the kernel's rules the planner
// must live with: a cgroup other than the real root may enable controllers for its children
// only while it holds no processes, and no process may join a cgroup that enabled them; a
// cgroup offers the controllers its parent enabled; a non-root arena writes only where it was
// delegated; cgroup.kill and cgroup.freeze exist outside the root on kernels that have them.
type fakeKernel struct {
	mnt      string
	avail    []string // the root's controllers
	nsRoot   bool     // the mount's root is a cgroup namespace's root, not the real root
	kill     bool     // Linux 5.14
	freeze   bool     // Linux 5.2
	readOnly bool
	cgs      map[string]*fakeCgroup
	movable  map[int]bool // processes the arena may move (its uid's); all when nil
}

type fakeCgroup struct {
	procs     map[int]bool
	subtree   map[string]bool
	writable  bool
	delegated bool
}

func newFakeKernel(avail ...string) *fakeKernel {
	k := &fakeKernel{mnt: "/sys/fs/cgroup", avail: avail, kill: true, freeze: true, cgs: map[string]*fakeCgroup{}}
	k.add("/", true, false)
	return k
}

// add makes a cgroup (relative to the mount) with the given processes.
func (k *fakeKernel) add(rel string, writable, delegated bool, pids ...int) *fakeCgroup {
	c := &fakeCgroup{procs: map[int]bool{}, subtree: map[string]bool{}, writable: writable, delegated: delegated}
	for _, p := range pids {
		c.procs[p] = true
	}
	k.cgs[path.Join(k.mnt, rel)] = c
	return c
}

func (k *fakeKernel) enableAll(rel string, ctrls ...string) {
	for _, c := range ctrls {
		k.cgs[path.Join(k.mnt, rel)].subtree[c] = true
	}
}

func (k *fakeKernel) isRoot(dir string) bool { return dir == k.mnt && !k.nsRoot }

func (k *fakeKernel) controllers(dir string) []string {
	if dir == k.mnt {
		return k.avail
	}
	parent := k.cgs[path.Dir(dir)]
	var out []string
	for _, c := range v2Controllers {
		if parent != nil && parent.subtree[c] {
			out = append(out, c)
		}
	}
	return out
}

func (k *fakeKernel) ReadFile(name string) ([]byte, error) {
	dir, file := path.Split(name)
	dir = path.Clean(dir)
	c := k.cgs[dir]
	if c == nil {
		return nil, syscall.ENOENT
	}
	switch file {
	case "cgroup.controllers":
		return []byte(strings.Join(k.controllers(dir), " ") + "\n"), nil
	case "cgroup.subtree_control":
		var on []string
		for _, x := range v2Controllers {
			if c.subtree[x] {
				on = append(on, x)
			}
		}
		return []byte(strings.Join(on, " ") + "\n"), nil
	case "cgroup.procs":
		var pids []int
		for p := range c.procs {
			pids = append(pids, p)
		}
		sort.Ints(pids)
		var b strings.Builder
		for _, p := range pids {
			b.WriteString(strconv.Itoa(p) + "\n")
		}
		return []byte(b.String()), nil
	}
	return nil, syscall.ENOENT
}

func (k *fakeKernel) WriteFile(name, data string) error {
	if k.readOnly {
		return syscall.EROFS
	}
	dir, file := path.Split(name)
	dir = path.Clean(dir)
	c := k.cgs[dir]
	if c == nil {
		return syscall.ENOENT
	}
	if !c.writable {
		return syscall.EACCES
	}
	switch file {
	case "cgroup.subtree_control":
		have := map[string]bool{}
		for _, x := range k.controllers(dir) {
			have[x] = true
		}
		for _, f := range strings.Fields(data) {
			if !have[strings.TrimPrefix(f, "+")] {
				return syscall.ENOENT
			}
		}
		if len(c.procs) > 0 && !k.isRoot(dir) {
			return syscall.EBUSY
		}
		for _, f := range strings.Fields(data) {
			c.subtree[strings.TrimPrefix(f, "+")] = true
		}
		return nil
	case "cgroup.procs":
		pid, err := strconv.Atoi(strings.TrimSpace(data))
		if err != nil {
			return syscall.EINVAL
		}
		if len(c.subtree) > 0 && !k.isRoot(dir) {
			return syscall.EBUSY
		}
		if k.movable != nil && !k.movable[pid] {
			return syscall.EACCES
		}
		for d, o := range k.cgs {
			if o.procs[pid] {
				if !o.writable {
					return syscall.EACCES
				}
				delete(k.cgs[d].procs, pid)
			}
		}
		c.procs[pid] = true
		return nil
	}
	return nil // limits and the like: accepted
}

func (k *fakeKernel) Mkdir(name string) error {
	if k.readOnly {
		return syscall.EROFS
	}
	if _, ok := k.cgs[name]; ok {
		return nil
	}
	parent := k.cgs[path.Dir(name)]
	if parent == nil {
		return syscall.ENOENT
	}
	if !parent.writable {
		return syscall.EACCES
	}
	k.cgs[name] = &fakeCgroup{procs: map[int]bool{}, subtree: map[string]bool{}, writable: true}
	return nil
}

func (k *fakeKernel) Exists(name string) bool {
	dir, file := path.Split(name)
	dir = path.Clean(dir)
	if _, ok := k.cgs[dir]; !ok {
		return false
	}
	switch file {
	case "cgroup.kill":
		return k.kill && !k.isRoot(dir)
	case "cgroup.freeze":
		return k.freeze && !k.isRoot(dir)
	}
	_, ok := k.cgs[name]
	return ok || strings.Contains(file, ".")
}

func (k *fakeKernel) Delegated(name string) bool {
	c := k.cgs[name]
	return c != nil && c.delegated
}

func (k *fakeKernel) procsOf(rel string) []int {
	var out []int
	for p := range k.cgs[path.Join(k.mnt, rel)].procs {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}

// host is the arena, pid 7, in cgroup own of this fake kernel.
func (k *fakeKernel) host(own string, root bool) *cgroupHost {
	return &cgroupHost{fs: k, mounts: map[string]string{"": k.mnt}, own: map[string]string{"": own}, pid: 7, root: root,
		fix: &fixer{args: []string{"arena", "play", "my bot"}, root: root, readFile: func(string) ([]byte, error) { return nil, syscall.ENOENT }}}
}

const owner7 = "7.1234"

func wantV2(t *testing.T, p *cgroupPlan, base string, ress ...string) {
	t.Helper()
	for _, r := range ress {
		if p.base[r] != base || !p.v2[r] {
			t.Errorf("%s: base %q (v2 %v), want v2 at %q; why %q", r, p.base[r], p.v2[r], base, p.why[r])
		}
	}
}

func wantMissing(t *testing.T, p *cgroupPlan, res, why, fix string) {
	t.Helper()
	if p.has(res) {
		t.Errorf("%s: placed at %s, want missing", res, p.base[res])
		return
	}
	if !strings.Contains(p.why[res], why) {
		t.Errorf("%s: why %q, want it to say %q", res, p.why[res], why)
	}
	if !strings.Contains(p.fix[res], fix) {
		t.Errorf("%s: fix %q, want %q", res, p.fix[res], fix)
	}
}

// The arena in the real root cgroup (a VM or a host without systemd, as root): the root may
// enable controllers while holding processes, and has no cgroup.kill of its own: the kill is
// looked for in the cgroup the arena makes.
func TestCgroupPlanRootCgroup(t *testing.T) {
	k := newFakeKernel("cpuset", "cpu", "io", "memory", "pids")
	k.add("/", true, false, 1, 7, 80)
	p := k.host("/", true).plan(owner7)
	base := "/sys/fs/cgroup/arena-sandbox"
	wantV2(t, p, base, cgMemory, cgPids, cgCPU, cgCPUAcct, cgFreezer)
	if p.kill != killV2 {
		t.Errorf("kill by %q, want cgroup.kill", p.kill)
	}
	if _, ok := k.cgs["/sys/fs/cgroup/"+leafName]; ok {
		t.Error("a leaf was made in the real root, which needs none")
	}
	if got := k.procsOf("arena-sandbox/" + owner7); len(got) != 0 {
		t.Errorf("processes in the owner cgroup: %v", got)
	}
}

// A container: the arena (and an init beside it) in the root of a private cgroup namespace,
// which is not the real root: both move into a leaf, then the controllers are enabled.
func TestCgroupPlanContainer(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids", "io")
	k.nsRoot = true
	k.add("/", true, false, 1, 7)
	p := k.host("/", true).plan(owner7)
	wantV2(t, p, "/sys/fs/cgroup/arena-sandbox", cgMemory, cgPids, cgCPU, cgFreezer)
	if got := k.procsOf(leafName); len(got) != 2 {
		t.Errorf("the leaf holds %v, want the init and the arena", got)
	}
	if got := k.procsOf("/"); len(got) != 0 {
		t.Errorf("the namespace root still holds %v", got)
	}
	// A second arena of the same container, started in the leaf (runc exec falls back to the
	// init's cgroup), uses the cgroup above it.
	k.cgs["/sys/fs/cgroup/"+leafName].procs[9] = true
	h := k.host("/"+leafName, true)
	h.pid = 9
	q := h.plan("9.1")
	wantV2(t, q, "/sys/fs/cgroup/arena-sandbox", cgMemory, cgPids, cgCPU, cgFreezer)
	if _, ok := k.cgs["/sys/fs/cgroup/"+leafName+"/"+leafName]; ok {
		t.Error("a leaf was made inside the leaf")
	}
}

// Docker's default: a private cgroup namespace mounted read-only. Every cgroup layer is
// missing and the fix names the container flags.
func TestCgroupPlanReadOnlyContainer(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.nsRoot, k.readOnly = true, true
	k.add("/", true, false, 1)
	p := k.host("/", true).plan(owner7)
	for _, r := range cgResources {
		wantMissing(t, p, r, "read-only file system", "--cgroupns=private")
	}
}

// Rootless with systemd delegation (systemd-run --user -p Delegate=yes): the scope is the
// user's; an older systemd delegates memory and pids but not cpu.
func TestCgroupPlanDelegatedUser(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.movable = map[int]bool{7: true, 8: true}
	k.add("/user.slice", false, false)
	k.enableAll("/", "cpu", "memory", "pids")
	k.enableAll("/user.slice", "memory", "pids")
	k.add("/user.slice/user@1000.service", true, true)
	k.enableAll("/user.slice/user@1000.service", "memory", "pids")
	scope := "/user.slice/user@1000.service/run-u5.scope"
	k.add(scope, true, true, 7, 8)
	p := k.host(scope, false).plan(owner7)
	base := "/sys/fs/cgroup" + scope + "/arena-sandbox"
	wantV2(t, p, base, cgMemory, cgPids, cgFreezer)
	wantMissing(t, p, cgCPU, "cpu controller is not delegated", "Delegate=cpu cpuset io memory pids")
	if got := k.procsOf(scope + "/" + leafName); len(got) != 2 {
		t.Errorf("the leaf holds %v, want the arena and its shell", got)
	}
}

// A user without delegation (a login session's scope, systemd's): the fix runs the same
// command in a delegated scope.
func TestCgroupPlanUserWithoutDelegation(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.enableAll("/", "cpu", "memory", "pids")
	k.add("/user.slice", false, false)
	k.enableAll("/user.slice", "cpu", "memory", "pids")
	k.add("/user.slice/session-3.scope", false, false, 7, 100)
	h := k.host("/user.slice/session-3.scope", false)
	h.fix.systemd, h.fix.userManager = true, true
	p := h.plan(owner7)
	for _, r := range cgResources {
		wantMissing(t, p, r, "permission denied", "systemd-run --user --scope -p Delegate=yes -- arena play 'my bot'")
	}
}

// Root in a systemd login session: the session's scope is systemd's, so the arena leaves its
// processes alone and makes its cgroups under the hierarchy's root, saying how to do better.
func TestCgroupPlanRootInSystemdSession(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.enableAll("/", "cpu", "memory", "pids")
	k.add("/user.slice", true, false)
	k.enableAll("/user.slice", "cpu", "memory", "pids")
	k.add("/user.slice/session-3.scope", true, false, 7, 100)
	h := k.host("/user.slice/session-3.scope", true)
	h.systemd, h.fix.systemd = true, true
	p := h.plan(owner7)
	wantV2(t, p, "/sys/fs/cgroup/arena-sandbox", cgMemory, cgPids, cgCPU, cgFreezer)
	if got := k.procsOf("/user.slice/session-3.scope"); len(got) != 2 {
		t.Errorf("the session scope holds %v, want its processes left where they were", got)
	}
	if len(p.notes) != 1 || !strings.Contains(p.notes[0], "systemd-run --scope -p Delegate=yes -- arena play 'my bot'") {
		t.Errorf("notes %q, want the delegated unit named", p.notes)
	}
	// Delegated to root (systemd-run --scope -p Delegate=yes): the scope is the arena's.
	k.cgs["/sys/fs/cgroup/user.slice/session-3.scope"].delegated = true
	q := h.plan("7.2")
	wantV2(t, q, "/sys/fs/cgroup/user.slice/session-3.scope/arena-sandbox", cgMemory, cgPids, cgCPU, cgFreezer)
}

// Processes the arena may not move (another user's, in a cgroup it shares): the controllers
// cannot be enabled, and the report says which processes are in the way.
func TestCgroupPlanForeignProcesses(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.enableAll("/", "cpu", "memory", "pids")
	k.add("/box", true, true, 7, 55)
	k.movable = map[int]bool{7: true}
	p := k.host("/box", false).plan(owner7)
	wantMissing(t, p, cgMemory, "cannot move into /sys/fs/cgroup/box/arena-leaf: 55", "sudo arena play 'my bot'")
}

// Older kernels: before 5.14 the v2 freezer replaces cgroup.kill; before 5.2 the arena kills
// what cgroup.procs lists, and the report says so.
func TestCgroupPlanOlderKernels(t *testing.T) {
	k := newFakeKernel("cpu", "memory", "pids")
	k.kill = false
	p := k.host("/", true).plan(owner7)
	wantV2(t, p, "/sys/fs/cgroup/arena-sandbox", cgMemory, cgFreezer)
	if p.kill != freezeV2 || !strings.Contains(p.killNote, "no cgroup.kill") {
		t.Errorf("kill %q (%q), want the v2 freezer", p.kill, p.killNote)
	}
	k.freeze = false
	q := k.host("/", true).plan("7.2")
	wantV2(t, q, "/sys/fs/cgroup/arena-sandbox", cgMemory, cgPids, cgCPU)
	wantMissing(t, q, cgFreezer, "neither cgroup.kill (Linux 5.14) nor cgroup.freeze", "Linux 5.14")
	if !strings.Contains(q.why[cgFreezer], "kills what its cgroups list") {
		t.Errorf("why %q does not say what replaces the kill", q.why[cgFreezer])
	}
	// The same through the test hook on a kernel that has both.
	k.kill, k.freeze = true, true
	h := k.host("/", true)
	h.hide = kernelHides{CgroupKill: true}
	if r := h.plan("7.3"); r.kill != freezeV2 {
		t.Errorf("hiding cgroup.kill: kill by %q", r.kill)
	}
}

// A hybrid machine (this project's CI: an empty unified hierarchy beside v1 controllers): v2
// offers nothing, v1 gives everything.
func TestCgroupPlanHybrid(t *testing.T) {
	k := newFakeKernel()
	mounts := map[string]string{"": k.mnt}
	own := map[string]string{"": "/"}
	for _, r := range cgResources {
		m := "/sys/fs/cgroup/" + r
		mounts[r], own[r] = m, "/"
		k.cgs[m] = &fakeCgroup{procs: map[int]bool{}, subtree: map[string]bool{}, writable: true}
	}
	h := k.host("/", true)
	h.mounts, h.own = mounts, own
	p := h.plan(owner7)
	for _, r := range cgResources {
		if p.base[r] != "/sys/fs/cgroup/"+r+"/arena-sandbox" || p.v2[r] {
			t.Errorf("%s: base %q v2 %v", r, p.base[r], p.v2[r])
		}
	}
	if p.kill != freezeV1 {
		t.Errorf("kill by %q, want the v1 freezer", p.kill)
	}
}
