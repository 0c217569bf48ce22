//go:build !arenadegraded

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// cgroupDirName is the directory, under the arena's own cgroup in every hierarchy it uses,
// that holds one directory per arena process (named by its owner id), and under that one per
// sandboxed process.
const cgroupDirName = "arena-sandbox"

// Resources the sandbox takes from cgroups.
const (
	cgMemory  = "memory"
	cgPids    = "pids"
	cgCPU     = "cpu"     // quota
	cgCPUAcct = "cpuacct" // usage
	cgFreezer = "freezer" // total kill
)

var cgResources = []string{cgMemory, cgPids, cgCPU, cgCPUAcct, cgFreezer}

// cgroupPlan says where each resource lives on this machine: the directory under which the
// per-owner directory is made, and whether it is cgroup v2.
type cgroupPlan struct {
	base map[string]string // resource -> base dir (".../arena-sandbox")
	v2   map[string]bool
	why  map[string]string // resource -> why it is unavailable
	fix  map[string]string // resource -> the command that would give it
	// kill is how a tree is killed at once (killV2, freezeV2, freezeV1, or killByWalk).
	kill string
	// killNote says how the kill degrades on this kernel, when it does.
	killNote string
	// v2Dir is the cgroup v2 directory whose controllers the arena enables.
	v2Dir string
	notes []string
}

func (p *cgroupPlan) has(res string) bool { return p != nil && p.base[res] != "" }

// cgroup is the set of cgroup directories of one sandboxed process.
type cgroup struct {
	dirs map[string]string // resource -> directory
	v2   map[string]bool
	kill string   // the plan's kill method
	all  []string // unique directories, in creation order
	cpuF *cgFile  // kept open so a CPU reading costs one pread
	// memF is the current-memory file, kept open too: opening a cgroup file costs about
	// 20 us, a pread of an open one about 1 us (BenchmarkSnapshot).
	memF *cgFile
}

// cgFile is an open cgroup counter file, read whole from its start with one pread. os.File's
// ReadAt reads on until its buffer is full, so every reading paid a second pread for the end
// of the file, in which the kernel prints the file again (2 system calls per CPU reading,
// measured per move with perf; issue 23).
type cgFile struct {
	f    *os.File
	rc   syscall.RawConn
	read func(fd uintptr) bool // g.pread, bound once: a reading allocates nothing
	mu   sync.Mutex            // the CPU clock's poller and a move's end may read at once
	buf  [512]byte             // a counter file's text is a few words (cpu.stat: ~10 lines)
	n    int
	err  error
}

func openCgFile(path string) *cgFile {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		_ = f.Close()
		return nil
	}
	g := &cgFile{f: f, rc: rc}
	g.read = g.pread
	return g
}

func (g *cgFile) pread(fd uintptr) bool {
	for {
		g.n, g.err = syscall.Pread(int(fd), g.buf[:], 0)
		if g.err != syscall.EINTR {
			return true
		}
	}
}

// text calls parse with the file's text now (ok false when it cannot be read).
func (g *cgFile) text(parse func(text []byte)) (ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.rc.Read(g.read); err != nil || g.err != nil || g.n <= 0 {
		return false
	}
	parse(g.buf[:g.n])
	return true
}

func (g *cgFile) close() {
	if g != nil {
		_ = g.f.Close()
	}
}

// newCgroup makes the process's cgroups and sets its limits. The init is added by add.
func (p *cgroupPlan) newCgroup(owner, name string, l Limits) (*cgroup, error) {
	c := &cgroup{dirs: map[string]string{}, v2: map[string]bool{}, kill: p.kill}
	made := map[string]bool{}
	for _, r := range cgResources {
		base := p.base[r]
		if base == "" {
			continue
		}
		dir := filepath.Join(base, owner, name)
		if !made[dir] {
			if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
				c.remove()
				return nil, fmt.Errorf("cgroup %s: %w", r, err)
			}
			made[dir] = true
			c.all = append(c.all, dir)
		}
		c.dirs[r], c.v2[r] = dir, p.v2[r]
	}
	if err := c.setLimits(l); err != nil {
		c.remove()
		return nil, err
	}
	if d, ok := c.dirs[cgCPUAcct]; ok {
		file := "cpuacct.usage"
		if c.v2[cgCPUAcct] {
			file = "cpu.stat"
		}
		c.cpuF = openCgFile(filepath.Join(d, file))
	}
	if d, ok := c.dirs[cgMemory]; ok {
		file := "memory.usage_in_bytes"
		if c.v2[cgMemory] {
			file = "memory.current"
		}
		c.memF = openCgFile(filepath.Join(d, file))
	}
	return c, nil
}

func (c *cgroup) write(res, file, val string) error {
	d, ok := c.dirs[res]
	if !ok {
		return nil
	}
	if err := os.WriteFile(filepath.Join(d, file), []byte(val), 0); err != nil {
		return fmt.Errorf("cgroup %s: %w", file, err)
	}
	return nil
}

func (c *cgroup) setLimits(l Limits) error {
	if l.MemoryBytes > 0 {
		mem := strconv.FormatInt(l.MemoryBytes, 10)
		if c.v2[cgMemory] {
			if err := c.write(cgMemory, "memory.max", mem); err != nil {
				return err
			}
			_ = c.write(cgMemory, "memory.swap.max", "0")
		} else {
			if err := c.write(cgMemory, "memory.limit_in_bytes", mem); err != nil {
				return err
			}
			// No swap either: memsw is the limit on memory plus swap (absent without swap accounting).
			_ = c.write(cgMemory, "memory.memsw.limit_in_bytes", mem)
			_ = c.write(cgMemory, "memory.swappiness", "0")
		}
	}
	if l.Processes > 0 {
		if err := c.write(cgPids, "pids.max", strconv.Itoa(l.Processes)); err != nil {
			return err
		}
	}
	if l.CPUs > 0 {
		const period = 100000
		quota := int64(l.CPUs * period)
		if c.v2[cgCPU] {
			if err := c.write(cgCPU, "cpu.max", fmt.Sprintf("%d %d", quota, period)); err != nil {
				return err
			}
		} else {
			if err := c.write(cgCPU, "cpu.cfs_period_us", strconv.Itoa(period)); err != nil {
				return err
			}
			if err := c.write(cgCPU, "cpu.cfs_quota_us", strconv.FormatInt(quota, 10)); err != nil {
				return err
			}
		}
	}
	return nil
}

// add puts pid into every cgroup of the set.
func (c *cgroup) add(pid int) error {
	s := strconv.Itoa(pid)
	for _, d := range c.all {
		if err := os.WriteFile(filepath.Join(d, "cgroup.procs"), []byte(s), 0); err != nil {
			return fmt.Errorf("join cgroup %s: %w", d, err)
		}
	}
	return nil
}

func (c *cgroup) readInt(res, file string) int64 {
	d, ok := c.dirs[res]
	if !ok {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(d, file))
	if err != nil {
		return 0
	}
	n, _ := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	return n
}

// keyed reads "key value" lines and returns the value of key.
func (c *cgroup) keyed(res, file, key string) int64 {
	d, ok := c.dirs[res]
	if !ok {
		return 0
	}
	b, err := os.ReadFile(filepath.Join(d, file))
	if err != nil {
		return 0
	}
	return keyedValue(b, key)
}

func keyedValue(b []byte, key string) int64 {
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == key {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// cpu is the tree's CPU time so far; ok is false when no cgroup measures it.
func (c *cgroup) cpu() (time.Duration, bool) {
	if c == nil || c.cpuF == nil {
		return 0, false
	}
	var cpu time.Duration
	v2 := c.v2[cgCPUAcct]
	ok := c.cpuF.text(func(text []byte) {
		if v2 {
			cpu = time.Duration(keyedValue(text, "usage_usec")) * time.Microsecond
			return
		}
		ns, _ := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
		cpu = time.Duration(ns)
	})
	return cpu, ok
}

func (c *cgroup) memory() int64 {
	if c == nil || c.memF == nil {
		return 0
	}
	var v int64
	c.memF.text(func(text []byte) { v, _ = strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64) })
	return v
}

func (c *cgroup) peak() int64 {
	if c == nil {
		return 0
	}
	if c.v2[cgMemory] {
		return c.readInt(cgMemory, "memory.peak")
	}
	return c.readInt(cgMemory, "memory.max_usage_in_bytes")
}

func (c *cgroup) oomKills() int {
	if c == nil {
		return 0
	}
	if c.v2[cgMemory] {
		return int(c.keyed(cgMemory, "memory.events", "oom_kill"))
	}
	return int(c.keyed(cgMemory, "memory.oom_control", "oom_kill"))
}

func (c *cgroup) pidsHits() int {
	if c == nil {
		return 0
	}
	return int(c.keyed(cgPids, "pids.events", "max"))
}

// procs lists the processes left in the set's cgroups.
func (c *cgroup) procs() []int {
	var out []int
	seen := map[int]bool{}
	for _, d := range c.all {
		b, err := os.ReadFile(filepath.Join(d, "cgroup.procs"))
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil && !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

// killAll kills every process in the set at once: v2 cgroup.kill; or freeze (v2 or v1), kill,
// thaw, so that nothing can fork while it is being killed; or, with no freezer, by killing
// what cgroup.procs lists until nothing is left. It reports whether a cgroup did it.
func (c *cgroup) killAll() bool {
	if c == nil {
		return false
	}
	d, ok := c.dirs[cgFreezer]
	if !ok {
		c.killListed()
		return false
	}
	switch c.kill {
	case killV2:
		if os.WriteFile(filepath.Join(d, "cgroup.kill"), []byte("1"), 0) == nil {
			return true
		}
	case freezeV2:
		_ = os.WriteFile(filepath.Join(d, "cgroup.freeze"), []byte("1"), 0)
		// cgroup.events says "frozen 1" once every task stopped; a task stuck in the kernel
		// can delay that, and SIGKILL reaches frozen tasks anyway.
		for i := 0; i < 50; i++ {
			b, _ := os.ReadFile(filepath.Join(d, "cgroup.events"))
			if keyedValue(b, "frozen") == 1 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		c.killListed()
		_ = os.WriteFile(filepath.Join(d, "cgroup.freeze"), []byte("0"), 0)
		return true
	case freezeV1:
		state := filepath.Join(d, "freezer.state")
		_ = os.WriteFile(state, []byte("FROZEN"), 0)
		for i := 0; i < 50; i++ {
			b, _ := os.ReadFile(state)
			if strings.TrimSpace(string(b)) != "FREEZING" {
				break
			}
			time.Sleep(time.Millisecond)
		}
		c.killListed()
		_ = os.WriteFile(state, []byte("THAWED"), 0)
		return true
	}
	c.killListed()
	return false
}

// killListed kills what the set's cgroups list, again while new processes appear (a bounded
// number of rounds: the pids limit bounds how many a fork race can make).
func (c *cgroup) killListed() {
	for round := 0; round < 100; round++ {
		pids := c.procs()
		if len(pids) == 0 {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		if round > 0 {
			time.Sleep(time.Millisecond)
		}
	}
}

// remove deletes the set's directories, killing anything still inside first.
func (c *cgroup) remove() {
	if c == nil {
		return
	}
	c.cpuF.close()
	c.memF.close()
	removeCgroupDirs(c.all)
}

func removeCgroupDirs(dirs []string) {
	for _, d := range dirs {
		for i := 0; i < 100; i++ {
			err := syscall.Rmdir(d)
			if err == nil || errors.Is(err, syscall.ENOENT) {
				break
			}
			if errors.Is(err, syscall.EBUSY) {
				b, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
				for _, f := range strings.Fields(string(b)) {
					if n, err := strconv.Atoi(f); err == nil {
						_ = syscall.Kill(n, syscall.SIGKILL)
					}
				}
				_ = os.WriteFile(filepath.Join(d, "freezer.state"), []byte("THAWED"), 0)
				_ = os.WriteFile(filepath.Join(d, "cgroup.freeze"), []byte("0"), 0)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
}
