//go:build !arenadegraded

package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Init should be the first call in main of every binary that starts sandboxed processes (the
// arena command, and test binaries from TestMain). In a normal run it returns at once. When
// the sandbox re-executes the binary as the init of a new sandbox, Init never returns: it
// builds the sandbox, starts the bot and reaps it, then exits.
//
// The package's own init function calls it too, so a binary that forgets still works; the
// explicit call documents the hook and skips nothing but the other packages' init work.
func Init() {
	if filepath.Base(os.Args[0]) != initArg0 {
		return
	}
	// Everything that must be inherited by the bot (Landlock domain, seccomp filter,
	// no_new_privs) is per thread: do it all on this one thread and fork the bot from it.
	runtime.LockOSThread()
	os.Exit(runInit())
}

func init() { Init() }

type initRun struct {
	cfg    initConfig
	status *os.File
}

func (r *initRun) send(ev initEvent) {
	b, _ := json.Marshal(ev)
	_, _ = r.status.Write(append(b, '\n'))
}

func (r *initRun) fail(step string, err error) int {
	r.send(initEvent{Event: "error", Step: step, Error: err.Error()})
	return 125
}

func runInit() int {
	syscall.CloseOnExec(configFD)
	syscall.CloseOnExec(statusFD)
	r := &initRun{status: os.NewFile(statusFD, "status")}
	cfgFile := os.NewFile(configFD, "config")
	// EOF before a config means the host died or gave up: leave quietly.
	if err := json.NewDecoder(cfgFile).Decode(&r.cfg); err != nil {
		return 124
	}
	_ = cfgFile.Close()
	cfg := &r.cfg
	// Passed on only at 3, 4, ... (StartProcess dups them there), never at the init's numbers.
	for _, fd := range cfg.Pass {
		syscall.CloseOnExec(fd)
	}

	if cfg.UTSNS {
		if err := unix.Sethostname([]byte("arena")); err != nil {
			return r.fail("uts namespace", err)
		}
	}
	if cfg.CgroupNS {
		// The host put this init into its cgroups before sending the config: that cgroup
		// becomes the namespace's root.
		if err := unix.Unshare(unix.CLONE_NEWCGROUP); err != nil {
			return r.fail("cgroup namespace", err)
		}
	}
	dir := cfg.Dir
	if cfg.MountNS {
		if err := setupMounts(cfg); err != nil {
			return r.fail("filesystem view", err)
		}
	}
	if dir == "" || !visible(dir) {
		dir = cfg.WorkAt
	}
	landlockABI := 0
	if cfg.Landlock > 0 {
		abi, err := applyLandlock(cfg)
		if err != nil {
			return r.fail("landlock", err)
		}
		landlockABI = abi
	}
	if cfg.Rlimits {
		if err := setRlimits(cfg); err != nil {
			return r.fail("rlimits", err)
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return r.fail("no_new_privs", err)
	}
	if !cfg.PIDNS {
		// Without a PID namespace, orphans of the bot come back to this init, which kills them.
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			return r.fail("subreaper", err)
		}
	}
	if cfg.Seccomp {
		if err := installSeccomp(); err != nil {
			return r.fail("seccomp", err)
		}
	}
	if cfg.Probe {
		r.send(initEvent{Event: "probe", Landlock: landlockABI})
		return 0
	}

	null, err := os.OpenFile("/dev/null", os.O_RDWR, 0)
	if err != nil {
		return r.fail("open /dev/null", err)
	}
	sys := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if cfg.BotUID >= 0 {
		sys.Credential = &syscall.Credential{Uid: uint32(cfg.BotUID), Gid: uint32(cfg.BotGID), Groups: []uint32{}}
	}
	argv := cfg.Args
	if len(argv) == 0 {
		argv = []string{cfg.Path}
	}
	files := []*os.File{null, os.Stdout, os.Stderr}
	for _, fd := range cfg.Pass {
		files = append(files, os.NewFile(uintptr(fd), "pass"))
	}
	proc, err := os.StartProcess(cfg.Path, argv, &os.ProcAttr{
		Dir: dir, Env: cfg.Env, Files: files, Sys: sys,
	})
	// The init keeps no copy of what it passed on: the program's end of a lane reaches EOF
	// for the host when the program is gone.
	for _, f := range files[3:] {
		_ = f.Close()
	}
	if err != nil {
		return r.fail("start", err)
	}
	r.send(initEvent{Event: "started", Pid: proc.Pid, Landlock: landlockABI})
	// Only the bot's tree holds the output pipes now, so they reach EOF when it is gone.
	_ = unix.Dup2(int(null.Fd()), 1)
	_ = unix.Dup2(int(null.Fd()), 2)
	_ = null.Close()
	return r.reap(proc.Pid)
}

// visible reports whether dir exists as a directory in the (possibly new) root.
func visible(dir string) bool {
	st, err := os.Stat(dir)
	return err == nil && st.IsDir()
}

// reap waits for the main process, then makes sure nothing of the tree is left, reports the
// exit and returns.
func (r *initRun) reap(main int) int {
	var ws syscall.WaitStatus
	for {
		var w syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &w, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: cannot happen before main is reaped
		}
		if pid == main {
			ws = w
			break
		}
	}
	killTree(r.cfg.PIDNS)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	ev := initEvent{Event: "exit", UserUsec: ru.Utime.Sec*1e6 + ru.Utime.Usec,
		SysUsec: ru.Stime.Sec*1e6 + ru.Stime.Usec, MaxRSSKB: ru.Maxrss}
	if ws.Signaled() {
		ev.Signal = int(ws.Signal())
	} else {
		ev.Status = ws.ExitStatus()
	}
	r.send(ev)
	return 0
}

// killTree kills every remaining process of the sandbox and reaps them all. In a PID namespace
// kill(-1) reaches every process in it; otherwise this init is their subreaper and finds them
// as its descendants.
func killTree(pidns bool) {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if pidns {
			_ = syscall.Kill(-1, syscall.SIGKILL)
		} else {
			for _, pid := range descendants(os.Getpid()) {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
		// Reap whatever has died; stop when no child is left.
		for {
			pid, err := syscall.Wait4(-1, nil, syscall.WNOHANG, nil)
			if err == syscall.ECHILD {
				return
			}
			if err != nil || pid <= 0 {
				break
			}
		}
		time.Sleep(time.Millisecond)
	}
}

// descendants lists the live descendants of pid, from /proc/<pid>/task/*/children.
func descendants(pid int) []int {
	var out []int
	queue := []int{pid}
	seen := map[int]bool{pid: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children(p) {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
				queue = append(queue, c)
			}
		}
	}
	return out
}

func children(pid int) []int {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

func setRlimits(cfg *initConfig) error {
	l := cfg.Limits
	set := func(res int, cur, max uint64) error {
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: cur, Max: max}); err != nil {
			return fmt.Errorf("setrlimit %d: %w", res, err)
		}
		return nil
	}
	type lim struct {
		res      int
		cur, max uint64
		on       bool
	}
	cpu := uint64(l.CPUSeconds)
	lims := []lim{
		{unix.RLIMIT_CORE, 0, 0, true},
		{unix.RLIMIT_CPU, cpu, cpu + 1, l.CPUSeconds > 0},
		{unix.RLIMIT_FSIZE, uint64(l.FileBytes), uint64(l.FileBytes), l.FileBytes > 0},
		{unix.RLIMIT_NOFILE, uint64(l.OpenFiles), uint64(l.OpenFiles), l.OpenFiles > 0},
		// NPROC counts per uid: meaningful only when the bot has a uid of its own.
		{unix.RLIMIT_NPROC, uint64(l.Processes), uint64(l.Processes), l.Processes > 0 && cfg.BotUID >= 0},
		{unix.RLIMIT_DATA, uint64(cfg.DataBytes), uint64(cfg.DataBytes), cfg.DataBytes > 0},
		{unix.RLIMIT_MEMLOCK, 0, 0, true},
		{unix.RLIMIT_MSGQUEUE, 0, 0, true},
		{unix.RLIMIT_RTPRIO, 0, 0, true},
		{unix.RLIMIT_NICE, 0, 0, true},
	}
	for _, x := range lims {
		if !x.on {
			continue
		}
		// Never raise a limit the arena itself runs under.
		var old syscall.Rlimit
		if err := syscall.Getrlimit(x.res, &old); err == nil {
			if x.max > old.Max {
				x.max = old.Max
			}
			if x.cur > x.max {
				x.cur = x.max
			}
		}
		if err := set(x.res, x.cur, x.max); err != nil {
			return err
		}
	}
	return nil
}
