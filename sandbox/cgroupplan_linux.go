//go:build !arenadegraded

package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// leafName is the cgroup v2 leaf the arena moves its own processes into (with whatever else
// shares its cgroup) so that it may enable controllers in the cgroup above: cgroup v2 lets a
// cgroup other than the root hand controllers to its children only while it holds no
// processes itself (the "no internal processes" rule). Container inits do the same. An arena
// that finds itself in such a leaf (another arena of the same container made it) uses the
// cgroup above it.
const leafName = "arena-leaf"

// v2Controllers are the cgroup v2 controllers the sandbox enables, in the order it writes them.
var v2Controllers = []string{"memory", "pids", "cpu"}

// cgroupFS is the cgroup filesystem as the planner touches it: the real one, or in tests a
// fake kernel that keeps cgroup v2's rules (no internal processes, delegation by ownership).
type cgroupFS interface {
	ReadFile(name string) ([]byte, error)
	WriteFile(name, data string) error
	// Mkdir makes a cgroup; it is not an error when it exists.
	Mkdir(name string) error
	Exists(name string) bool
	// Delegated reports whether systemd marked the cgroup as handed over to its processes
	// (the trusted.delegate or user.delegate attribute, systemd 251 and later).
	Delegated(name string) bool
}

type osCgroupFS struct{}

func (osCgroupFS) ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }
func (osCgroupFS) WriteFile(name, data string) error {
	return os.WriteFile(name, []byte(data), 0)
}
func (osCgroupFS) Mkdir(name string) error {
	if err := os.Mkdir(name, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return nil
}
func (osCgroupFS) Exists(name string) bool { _, err := os.Stat(name); return err == nil }
func (osCgroupFS) Delegated(name string) bool {
	var b [8]byte
	for _, a := range []string{"trusted.delegate", "user.delegate"} {
		if n, err := unix.Getxattr(name, a, b[:]); err == nil && n > 0 && b[0] == '1' {
			return true
		}
	}
	return false
}

// kernelHides are kernel features the sandbox is made to believe missing, as an older or
// differently built kernel would have them missing: tests set them to prove that each one
// degrades to the next best layer and that the report says so. The zero value hides nothing.
type kernelHides struct {
	CgroupKill   bool // cgroup.kill (Linux 5.14)
	CgroupFreeze bool // the cgroup v2 freezer, cgroup.freeze (Linux 5.2)
	V1Freezer    bool // the cgroup v1 freezer hierarchy
	PSI          bool // pressure stall information (Linux 4.20, CONFIG_PSI, not psi=0)
	LandlockABI  int  // the highest Landlock ABI to use; 0 keeps the kernel's
	NoLandlock   bool // Landlock itself (Linux 5.13, and "landlock" in the lsm= list)
	Schedstat    bool // per-thread run-queue delay, /proc/<tid>/schedstat (CONFIG_SCHED_INFO)
}

// cgroupHost is what the planner knows of this machine and this process.
type cgroupHost struct {
	fs     cgroupFS
	mounts map[string]string // controller ("" for v2) -> mount point
	own    map[string]string // controller ("" for v2) -> this process's cgroup path
	pid    int
	root   bool // euid 0
	// systemd runs the machine: it owns every cgroup it did not delegate.
	systemd bool
	hide    kernelHides
	// fix builds the command that would give a missing layer (see fixes.go).
	fix *fixer
}

func thisCgroupHost(hide kernelHides) *cgroupHost {
	return &cgroupHost{fs: osCgroupFS{}, mounts: cgroupMounts(), own: ownCgroups(), pid: os.Getpid(),
		root: os.Geteuid() == 0, systemd: runsSystemd(), hide: hide, fix: thisFixer()}
}

func (h *cgroupHost) exists(name string) bool {
	switch filepath.Base(name) {
	case "cgroup.kill":
		if h.hide.CgroupKill {
			return false
		}
	case "cgroup.freeze":
		if h.hide.CgroupFreeze {
			return false
		}
	case "cpu.pressure", "memory.pressure":
		if h.hide.PSI {
			return false
		}
	}
	return h.fs.Exists(name)
}

// Kill methods, best first.
const (
	killV2     = "cgroup.kill"   // one write kills the tree (Linux 5.14)
	freezeV2   = "cgroup.freeze" // freeze, kill every process, thaw (Linux 5.2)
	freezeV1   = "freezer.state" // the same with the v1 freezer
	killByWalk = ""              // kill what cgroup.procs lists until it is empty
)

// planCgroups finds, for every resource, a place where this process may create cgroups: a v2
// cgroup whose controllers it can enable (its own, once its processes sit in a leaf; as root
// the hierarchy's root when its own is not delegated), else a v1 hierarchy with that
// controller.
func planCgroups(owner string, hide kernelHides) *cgroupPlan {
	return thisCgroupHost(hide).plan(owner)
}

func newCgroupPlan() *cgroupPlan {
	return &cgroupPlan{base: map[string]string{}, v2: map[string]bool{}, why: map[string]string{}, fix: map[string]string{}}
}

func (h *cgroupHost) plan(owner string) *cgroupPlan {
	p := newCgroupPlan()
	if len(h.mounts) == 0 {
		for _, r := range cgResources {
			p.why[r] = "no cgroup filesystem is mounted"
			p.fix[r] = h.fix.mountCgroups()
		}
		return p
	}
	if _, ok := h.mounts[""]; ok {
		h.planV2(owner, p)
	}
	for _, r := range cgResources {
		if p.base[r] != "" {
			continue
		}
		m, ok := h.mounts[r]
		if !ok || (r == cgFreezer && h.hide.V1Freezer) {
			if p.why[r] == "" {
				p.why[r] = "no cgroup v1 hierarchy and no cgroup v2 delegation for the " + r + " controller"
			}
			continue
		}
		base := filepath.Join(m, h.own[r], cgroupDirName)
		err := h.fs.Mkdir(base)
		if err == nil {
			err = h.fs.Mkdir(filepath.Join(base, owner))
		}
		if err != nil {
			p.why[r] = fmt.Sprintf("cgroup v1 %s: %v", r, err)
			if p.fix[r] == "" {
				p.fix[r] = h.fix.cgroupV1(err)
			}
			continue
		}
		p.base[r] = base
		if r == cgFreezer {
			p.kill = freezeV1
		}
		delete(p.why, r)
		delete(p.fix, r)
	}
	if !p.has(cgFreezer) && (p.has(cgMemory) || p.has(cgPids) || p.has(cgCPU)) {
		p.why[cgFreezer] = "no cgroup kill: " + p.why[cgFreezer] + "; the arena kills what its cgroups list until none is left (the PID namespace, when active, still takes the whole tree with its init)"
	}
	return p
}

// planV2 places every resource cgroup v2 offers.
func (h *cgroupHost) planV2(owner string, p *cgroupPlan) {
	mnt := h.mounts[""]
	dir := filepath.Join(mnt, h.own[""])
	if filepath.Base(dir) == leafName {
		dir = filepath.Dir(dir)
	}
	tries := []string{dir}
	if h.root && dir != mnt {
		// Root may use the hierarchy's root (systemd leaves cgroups it did not make alone);
		// a delegated cgroup of its own is still better, and the report says how.
		tries = append(tries, mnt)
	}
	var fails []string
	var firstErr error
	for _, d := range tries {
		base, ctrls, err := h.delegate(d, owner)
		if err != nil {
			fails = append(fails, err.Error())
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		for _, c := range ctrls {
			switch c {
			case "memory":
				p.base[cgMemory], p.v2[cgMemory] = base, true
			case "pids":
				p.base[cgPids], p.v2[cgPids] = base, true
			case "cpu":
				p.base[cgCPU], p.v2[cgCPU] = base, true
				p.base[cgCPUAcct], p.v2[cgCPUAcct] = base, true
			}
		}
		p.v2Dir = d
		if d != dir {
			p.notes = append(p.notes, fmt.Sprintf("cgroup v2: the arena's own cgroup %s is not delegated, so as root it uses %s (better: %s)", dir, d, h.fix.delegatedUnit()))
		}
		for _, r := range []string{cgMemory, cgPids, cgCPU} {
			if !p.has(r) {
				p.why[r] = fmt.Sprintf("cgroup v2 %s: the %s controller is not delegated to it (it offers: %s)", d, r, strings.Join(ctrls, ", "))
				p.fix[r] = h.fix.delegateControllers()
			}
		}
		// Group kill: the cgroup the arena makes has cgroup.kill (5.14) or cgroup.freeze
		// (5.2), whatever its parent has: the root cgroup has neither file.
		od := filepath.Join(base, owner)
		switch {
		case h.exists(filepath.Join(od, killV2)):
			p.base[cgFreezer], p.v2[cgFreezer], p.kill = base, true, killV2
		case h.exists(filepath.Join(od, freezeV2)):
			p.base[cgFreezer], p.v2[cgFreezer], p.kill = base, true, freezeV2
			p.killNote = "the kernel has no cgroup.kill (Linux 5.14): the v2 freezer stops the tree, then every process is killed and the tree thawed"
		default:
			p.why[cgFreezer] = "the kernel has neither cgroup.kill (Linux 5.14) nor cgroup.freeze (Linux 5.2)"
			p.fix[cgFreezer] = "upgrade to Linux 5.14 or later"
		}
		return
	}
	why := fmt.Sprintf("cgroup v2: %s", strings.Join(fails, "; "))
	fix := h.fix.cgroupV2(firstErr)
	for _, r := range cgResources {
		p.why[r], p.fix[r] = why, fix
	}
}

// errNoControllers: the cgroup offers none of the controllers the sandbox uses (a hybrid
// machine's empty unified hierarchy, or nothing delegated).
var errNoControllers = errors.New("none of the memory, pids and cpu controllers is available")

// delegate enables the sandbox's controllers in d (moving d's processes into a leaf when d
// holds any), makes d/arena-sandbox/owner with them enabled, and returns the base.
func (h *cgroupHost) delegate(d, owner string) (string, []string, error) {
	b, err := h.fs.ReadFile(filepath.Join(d, "cgroup.controllers"))
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", d, err)
	}
	have := map[string]bool{}
	for _, c := range strings.Fields(string(b)) {
		have[c] = true
	}
	var want []string
	for _, c := range v2Controllers {
		if have[c] {
			want = append(want, c)
		}
	}
	if len(want) == 0 {
		return "", nil, fmt.Errorf("%s: %w", d, errNoControllers)
	}
	err = h.enable(d, want)
	if errors.Is(err, syscall.EBUSY) {
		if !h.mayRearrange(d) {
			err = fmt.Errorf("%w (it holds processes, and it is systemd's: the arena moves them into a leaf only in a cgroup delegated to it)", err)
		} else if err = h.intoLeaf(d); err == nil {
			err = h.enable(d, want)
		}
	}
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", d, err)
	}
	base := filepath.Join(d, cgroupDirName)
	for _, c := range []string{base, filepath.Join(base, owner)} {
		if err := h.fs.Mkdir(c); err != nil {
			return "", nil, fmt.Errorf("%s: %w", c, err)
		}
		if err := h.enable(c, want); err != nil {
			return "", nil, fmt.Errorf("%s: %w", c, err)
		}
	}
	return base, want, nil
}

// enable turns on the controllers in d's subtree_control that are not on yet.
func (h *cgroupHost) enable(d string, ctrls []string) error {
	cur, _ := h.fs.ReadFile(filepath.Join(d, "cgroup.subtree_control"))
	on := map[string]bool{}
	for _, c := range strings.Fields(string(cur)) {
		on[c] = true
	}
	var missing []string
	for _, c := range ctrls {
		if !on[c] {
			missing = append(missing, "+"+c)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	if err := h.fs.WriteFile(filepath.Join(d, "cgroup.subtree_control"), strings.Join(missing, " ")); err != nil {
		return fmt.Errorf("enable %s: %w", strings.Join(missing, " "), err)
	}
	return nil
}

// mayRearrange reports whether the arena may move d's processes into a leaf: d is the root of
// its cgroup namespace (a container's own cgroup), or no systemd manages the machine, or
// systemd delegated d, or the arena is not root (it can write only where it was delegated).
func (h *cgroupHost) mayRearrange(d string) bool {
	return d == h.mounts[""] || !h.systemd || !h.root || h.fs.Delegated(d)
}

func runsSystemd() bool {
	_, err := os.Stat("/run/systemd/system")
	return err == nil
}

// intoLeaf moves every process of d (the arena's own first) into d/arena-leaf, as a container
// init does, so that d may enable controllers for its children.
func (h *cgroupHost) intoLeaf(d string) error {
	leaf := filepath.Join(d, leafName)
	if err := h.fs.Mkdir(leaf); err != nil {
		return fmt.Errorf("make the leaf %s for the arena's processes: %w", leaf, err)
	}
	if err := h.fs.WriteFile(filepath.Join(leaf, "cgroup.procs"), strconv.Itoa(h.pid)); err != nil {
		return fmt.Errorf("move the arena into %s: %w", leaf, err)
	}
	// Processes may fork while they are moved; a few rounds catch the children.
	var stuck []string
	for round := 0; round < 5; round++ {
		b, err := h.fs.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			return err
		}
		pids := strings.Fields(string(b))
		if len(pids) == 0 {
			return nil
		}
		stuck = stuck[:0]
		for _, pid := range pids {
			if err := h.fs.WriteFile(filepath.Join(leaf, "cgroup.procs"), pid); err != nil {
				stuck = append(stuck, pid+" ("+err.Error()+")")
			}
		}
	}
	if len(stuck) > 0 {
		sort.Strings(stuck)
		return fmt.Errorf("%s holds processes the arena cannot move into %s: %s", d, leaf, strings.Join(stuck, ", "))
	}
	return nil
}

// ownCgroups parses /proc/self/cgroup: controller (or "" for v2) -> path.
func ownCgroups() map[string]string {
	out := map[string]string{}
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		if parts[1] == "" {
			out[""] = parts[2]
			continue
		}
		for _, c := range strings.Split(parts[1], ",") {
			out[c] = parts[2]
		}
	}
	return out
}

// cgroupMounts parses /proc/self/mountinfo: controller (or "" for v2) -> mount point.
func cgroupMounts() map[string]string {
	out := map[string]string{}
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return out
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		sep := -1
		for i, f := range fields {
			if f == "-" {
				sep = i
				break
			}
		}
		if sep < 0 || len(fields) < sep+4 {
			continue
		}
		mnt, fstype, opts := unescapeMount(fields[4]), fields[sep+1], fields[sep+3]
		switch fstype {
		case "cgroup2":
			if _, ok := out[""]; !ok {
				out[""] = mnt
			}
		case "cgroup":
			for _, o := range strings.Split(opts, ",") {
				if _, ok := out[o]; !ok {
					out[o] = mnt
				}
			}
		}
	}
	return out
}

// cgroupBases lists every directory where this arena or another one on the machine may have
// made its arena-sandbox cgroups: under its own cgroup (or the one above its leaf) and under
// each hierarchy's root. Cleanup looks in all of them.
func cgroupBases() []string {
	mounts, own := cgroupMounts(), ownCgroups()
	seen := map[string]bool{}
	var out []string
	for key, m := range mounts {
		dir := filepath.Join(m, own[key])
		if filepath.Base(dir) == leafName {
			dir = filepath.Dir(dir)
		}
		for _, d := range []string{dir, m} {
			b := filepath.Join(d, cgroupDirName)
			if !seen[b] {
				seen[b] = true
				out = append(out, b)
			}
		}
	}
	sort.Strings(out)
	return out
}
