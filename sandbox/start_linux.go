//go:build !arenadegraded

package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// systemPaths are the host's shared libraries and loader cache: every dynamically linked
// program (Python, most Go binaries built with cgo) needs them, and they hold no secrets.
var systemPaths = []string{"/lib", "/lib64", "/lib32", "/usr/lib", "/usr/lib64", "/usr/lib32",
	"/etc/ld.so.cache", "/etc/localtime", "/usr/share/zoneinfo"}

// config turns a spec into what the init needs.
func (p *plan) config(spec Spec, l Limits, extra []string) (*initConfig, error) {
	cfg := &initConfig{
		Name: spec.Name, Path: spec.Path, Args: spec.Args, Env: spec.Env, Dir: spec.Dir,
		WorkDir: spec.WorkDir, RootDir: p.rootDir, Limits: l,
		MountNS: p.mountns, PIDNS: p.pidns, UserNS: p.userns, UTSNS: p.utsns, CgroupNS: p.cgroupns,
		BotUID: -1, BotGID: -1, Seccomp: p.seccomp, Landlock: p.landlock, Rlimits: true,
	}
	if len(cfg.Args) == 0 {
		cfg.Args = []string{spec.Path}
	}
	cfg.WorkAt = p.workAt(spec)
	if !p.cg.has(cgMemory) && l.MemoryBytes > 0 {
		// RLIMIT_DATA counts reserved address space, not memory: thread stacks and the Go
		// heap's reservations need room above the real limit.
		cfg.DataBytes = l.MemoryBytes + 2<<30
	}
	paths := append(append(append([]string{}, systemPaths...), spec.ReadOnly...), extra...)
	paths = append(paths, spec.Path)
	binds, err := resolveBinds(paths, spec.WorkDir)
	if err != nil {
		return nil, err
	}
	// A runtime path under a path the sandbox puts something else at would vanish inside.
	var inside []string
	for _, m := range spec.Mounts {
		inside = append(inside, filepath.Clean(m.At))
	}
	if cfg.WorkAt != spec.WorkDir {
		inside = append(inside, cfg.WorkAt)
	}
	for _, b := range binds {
		for _, at := range inside {
			if within(b.Dst, at) || within(at, b.Dst) {
				return nil, fmt.Errorf("%s is needed inside the sandbox but lies where the sandbox shows %s; move it (a runtime or virtual environment under %s cannot be used)", b.Dst, at, at)
			}
		}
	}
	for _, m := range spec.Mounts {
		src, err := filepath.EvalSymlinks(m.Host)
		if err != nil {
			return nil, fmt.Errorf("mount %s at %s: %w", m.Host, m.At, err)
		}
		st, err := os.Stat(src)
		if err != nil {
			return nil, fmt.Errorf("mount %s at %s: %w", m.Host, m.At, err)
		}
		if !filepath.IsAbs(m.At) || filepath.Clean(m.At) == "/" {
			return nil, fmt.Errorf("mount %s: inside path %q must be absolute and not /", m.Host, m.At)
		}
		binds = append(binds, bind{Src: src, Dst: filepath.Clean(m.At), Dir: st.IsDir()})
	}
	cfg.ReadOnly = binds
	cfg.Network, cfg.WorkExec = spec.Network, spec.WorkExec
	return cfg, nil
}

// resolveBinds turns paths into binds: each path appears at its own name, backed by what it
// resolves to on the host (so /lib -> usr/lib still works inside); a path whose name differs
// from its target also shows the target at the target's name. Missing paths are skipped, and
// paths inside another bound path or the work directory are dropped.
func resolveBinds(paths []string, workDir string) ([]bind, error) {
	seen := map[string]bind{}
	for _, p := range paths {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		p = filepath.Clean(p)
		src, err := filepath.EvalSymlinks(p)
		if err != nil {
			continue
		}
		st, err := os.Stat(src)
		if err != nil {
			continue
		}
		for _, dst := range []string{p, src} {
			if _, ok := seen[dst]; !ok {
				seen[dst] = bind{Src: src, Dst: dst, Dir: st.IsDir()}
			}
		}
	}
	var out []bind
	for _, b := range seen {
		out = append(out, b)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Dst < out[j].Dst })
	var kept []bind
	for _, b := range out {
		if workDir != "" && within(b.Dst, workDir) {
			continue
		}
		covered := false
		for _, k := range kept {
			if k.Dir && within(b.Dst, k.Dst) {
				rel, _ := filepath.Rel(k.Dst, b.Dst)
				if filepath.Join(k.Src, rel) == b.Src {
					covered = true
					break
				}
			}
		}
		if !covered {
			kept = append(kept, b)
		}
	}
	return kept, nil
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// workAt is where spec's work dir appears inside: Spec.WorkAt where a mount namespace can put
// it there, its host path otherwise.
func (p *plan) workAt(spec Spec) string {
	if p.mountns && spec.WorkAt != "" && spec.WorkDir != "" {
		return filepath.Clean(spec.WorkAt)
	}
	return spec.WorkDir
}

// WorkPathInside is where a Start of spec will show its work dir to the process, for the
// caller that must name paths in it (its environment, a socket path the process reports).
func WorkPathInside(spec Spec) string {
	if spec.Unconfined {
		return getPlan().bare(false).workAt(spec)
	}
	return getPlan().workAt(spec)
}

// startInit starts the init, puts it into its cgroups, and sends its config.
func (p *plan) startInit(cfg *initConfig, slot *uidSlot, cg *cgroup, stdout, stderr *os.File, pass []*os.File) (*initRunner, error) {
	run := &initRunner{events: make(chan initEvent, 4), eof: make(chan struct{})}
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		run.step = "pipe"
		return run, err
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		_ = cfgR.Close()
		_ = cfgW.Close()
		run.step = "pipe"
		return run, err
	}
	extra := []*os.File{cfgR, stW}
	// What the program inherits travels through the init at fds of their own (ExtraFiles are
	// dup'd, so the caller's copies stay the caller's to close).
	cfg.Pass = nil
	for _, f := range pass {
		extra = append(extra, f)
		cfg.Pass = append(cfg.Pass, 2+len(extra))
	}
	if cfg.MountNS {
		// Hand the init every bind source as a detached mount (see bindMount).
		for i := range cfg.ReadOnly {
			if f := detachedMount(cfg.ReadOnly[i].Src, unix.MOUNT_ATTR_RDONLY|unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV); f != nil {
				extra = append(extra, f)
				cfg.ReadOnly[i].FD = 2 + len(extra)
			}
		}
		if cfg.WorkDir != "" {
			attr := uint64(unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV | unix.MOUNT_ATTR_NOEXEC)
			if cfg.WorkExec {
				attr &^= unix.MOUNT_ATTR_NOEXEC
			}
			if f := detachedTree(cfg.WorkDir, attr, true); f != nil {
				extra = append(extra, f)
				cfg.WorkFD = 2 + len(extra)
			}
		}
	}
	cmd := &exec.Cmd{
		Path: "/proc/self/exe", Args: []string{initArg0}, Env: []string{},
		Stdout: stdout, Stderr: stderr, ExtraFiles: extra,
		SysProcAttr: p.sysProcAttr(slot, cfg.Network),
	}
	if p.userns && slot != nil {
		// The user namespace is owned by the slot's own uid, not root, so the per-user kernel
		// counters the bot uses (inotify instances and watches, ...) are charged to it.
		err = startOwnedBy(cmd, slot.initUID())
	} else {
		err = cmd.Start()
	}
	for _, f := range extra[:2] {
		_ = f.Close()
	}
	for _, f := range extra[2+len(pass):] {
		_ = f.Close()
	}
	if err != nil {
		_ = cfgW.Close()
		_ = stR.Close()
		run.step = "clone"
		return run, fmt.Errorf("clone: %w", err)
	}
	run.cmd = cmd
	go func() {
		defer close(run.eof)
		defer close(run.events)
		defer stR.Close()
		sc := bufio.NewScanner(stR)
		for sc.Scan() {
			var ev initEvent
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				continue
			}
			if ev.Event == "exit" {
				run.exit = &ev
				continue
			}
			select {
			case run.events <- ev:
			default:
			}
		}
	}()
	if cg != nil {
		if err := cg.add(cmd.Process.Pid); err != nil {
			_ = cfgW.Close()
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			run.step = "cgroup"
			return run, err
		}
	}
	err = json.NewEncoder(cfgW).Encode(cfg)
	_ = cfgW.Close()
	if err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		run.step = "config"
		return run, fmt.Errorf("send config to the init: %w", err)
	}
	return run, nil
}

// detachedMount clones path as a detached mount with the given attributes, or returns nil
// (the init then binds the path itself, which works when it is root on the host).
func detachedMount(path string, attrs uint64) *os.File { return detachedTree(path, attrs, false) }

// detachedTree is detachedMount, with the mounts below path too when recursive (a work dir's
// overlays).
func detachedTree(path string, attrs uint64, recursive bool) *os.File {
	flags, setFlags := unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC, unix.AT_EMPTY_PATH
	if recursive {
		flags |= unix.AT_RECURSIVE
		setFlags |= unix.AT_RECURSIVE
	}
	fd, err := unix.OpenTree(unix.AT_FDCWD, path, uint(flags))
	if err != nil {
		return nil
	}
	attr := unix.MountAttr{Attr_set: attrs}
	if err := unix.MountSetattr(fd, "", uint(setFlags), &attr); err != nil {
		_ = unix.Close(fd)
		return nil
	}
	return os.NewFile(uintptr(fd), path)
}

// startTimeout bounds the wait for the init's first word. A real start takes milliseconds, but
// the init is the arena's own code, before any byte of the bot runs, so waiting long costs
// only a truly stuck init: 10 s ran out beside four busy loops (CI23, 3 December), in the
// emulated VM at nice 19 and for Python bots on the host, and the arena's slowness was charged
// to the bot as a failed start.
const startTimeout = time.Minute
