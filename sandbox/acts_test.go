//go:build linux && !arenadegraded

package sandbox

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// actEnv selects what the test binary does when a test runs it inside a sandbox.
const actEnv = "SANDBOX_TEST_ACT"

// loweredEnv marks the spinnice act's second run, at the priority its first lowered.
const loweredEnv = "SANDBOX_TEST_LOWERED"

// say prints one result line the test reads back.
func say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// result turns an error into "ok" or the error text.
func result(err error) string {
	if err == nil {
		return "ok"
	}
	return "fail: " + err.Error()
}

// self starts the test binary again with another act.
func self(act string, setsid bool) (*os.Process, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), actEnv+"="+act)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd.Process, nil
}

// runAct runs one attack or probe; its lines on stdout are the evidence.
func runAct(act string) int {
	name, arg, _ := strings.Cut(act, ":")
	switch name {
	case "hello":
		say("hello from inside")
	case "exit":
		n, _ := strconv.Atoi(arg)
		return n
	case "env":
		for _, e := range os.Environ() {
			say("env %s", e)
		}
	case "id":
		groups, _ := syscall.Getgroups()
		host, _ := os.Hostname()
		say("uid %d gid %d groups %v pid %d host %s", os.Getuid(), os.Getgid(), groups, os.Getpid(), host)
	case "ls":
		ents, err := os.ReadDir(arg)
		if err != nil {
			say("ls fail: %v", err)
		}
		for _, e := range ents {
			say("ls %s", e.Name())
		}
	case "read":
		f, err := os.Open(arg)
		if err == nil {
			var b [4096]byte
			_, err = f.Read(b[:])
			f.Close()
		}
		if err != nil {
			// A directory: try listing it.
			if _, derr := os.ReadDir(arg); derr == nil {
				err = nil
			}
		}
		say("read %s %s", arg, result(err))
	case "write":
		say("write %s %s", arg, result(os.WriteFile(arg, []byte("owned"), 0o644)))
	case "tcp":
		c, err := net.DialTimeout("tcp", arg, time.Second)
		if err == nil {
			_, err = c.Write([]byte("leak\n"))
			c.Close()
		}
		say("tcp %s %s", arg, result(err))
	case "udp":
		c, err := net.Dial("udp", arg)
		if err == nil {
			_, err = c.Write([]byte("leak"))
			c.Close()
		}
		say("udp %s %s", arg, result(err))
	case "unix":
		c, err := net.DialTimeout("unix", arg, time.Second)
		if err == nil {
			c.Close()
		}
		say("unix %s %s", arg, result(err))
	case "socket":
		fam := map[string]int{"netlink": unix.AF_NETLINK, "packet": unix.AF_PACKET, "vsock": unix.AF_VSOCK,
			"bluetooth": unix.AF_BLUETOOTH, "alg": unix.AF_ALG}
		typ := unix.SOCK_RAW
		f, ok := fam[arg]
		if arg == "raw" {
			f, ok = unix.AF_INET, true
		}
		if !ok {
			return 98
		}
		fd, err := unix.Socket(f, typ, 0)
		if err == nil {
			unix.Close(fd)
		}
		say("socket %s %s", arg, result(err))
	case "kill":
		pid, _ := strconv.Atoi(arg)
		say("kill %d %s", pid, result(syscall.Kill(pid, syscall.SIGKILL)))
	case "killall":
		say("killall %s", result(syscall.Kill(-1, syscall.SIGKILL)))
	case "syscall":
		return forbidden(arg)
	case "inotify":
		// Hold as many inotify instances as the kernel lets this uid have, then wait.
		n, _ := strconv.Atoi(arg)
		held := 0
		var last error
		for i := 0; i < n; i++ {
			if _, err := unix.InotifyInit1(0); err != nil {
				last = err
				break
			}
			held++
		}
		say("inotify held %d (%v)", held, last)
		time.Sleep(time.Minute)
	case "cat":
		b, err := os.ReadFile(arg)
		if err != nil {
			say("cat %s fail: %v", arg, err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			say("cat %s", l)
		}
	case "sleep":
		d, _ := time.ParseDuration(arg)
		say("sleeping")
		time.Sleep(d)
	case "spin":
		say("spinning")
		for {
		}
	case "spinall":
		// Burn every core from several threads.
		for i := 0; i < 4; i++ {
			go func() {
				for {
				}
			}()
		}
		say("spinning")
		select {}
	case "front":
		// A front program, as the stdio bridge is: it starts the bot's program (a child that
		// burns 200 ms of CPU time), burns 300 ms of its own, and waits for the child.
		child, err := self("burn:200ms", false)
		if err != nil {
			say("front fail: %v", err)
			return 1
		}
		burn(300 * time.Millisecond)
		_, _ = child.Wait()
		say("front done")
		select {}
	case "burn":
		d, _ := time.ParseDuration(arg)
		burn(d)
	case "burst":
		// Threads that come and go: once the test has read "ready", four threads spin for
		// 500 ms of wall time each and exit (a goroutine that ends locked to its thread takes
		// the thread with it), like a thread pool that grew under load and shrank again.
		say("ready")
		time.Sleep(300 * time.Millisecond)
		done := make(chan struct{}, 4)
		for i := 0; i < 4; i++ {
			go func() {
				runtime.LockOSThread()
				for end := time.Now().Add(500 * time.Millisecond); time.Now().Before(end); {
				}
				done <- struct{}{}
			}()
		}
		for i := 0; i < 4; i++ {
			<-done
		}
		say("burst done")
		select {}
	case "spinnice":
		// Four threads spinning at a priority the bot lowered (nice 19): runnable, and waiting
		// for a CPU behind everything else by its own choice. Where the host already runs at
		// nice 19 (nice -n 19 go test) nice cannot go lower, so it takes SCHED_IDLE, the other
		// way to lower a thread's priority. The act lowers its first thread and executes
		// itself again from it, so every thread of the new process inherits the lowering, the
		// Go runtime's own too: on a loaded machine their waits at the host's priority
		// counted, and the test read them as the spinners'.
		if os.Getenv(loweredEnv) == "" {
			runtime.LockOSThread()
			tid := unix.Gettid()
			// The raw getpriority returns 20 - nice.
			if prio, err := unix.Getpriority(unix.PRIO_PROCESS, tid); err == nil && 20-prio >= 19 {
				param := struct{ priority int32 }{}
				if _, _, e := unix.Syscall(unix.SYS_SCHED_SETSCHEDULER, uintptr(tid), unix.SCHED_IDLE, uintptr(unsafe.Pointer(&param))); e != 0 {
					say("sched_idle fail: %v", e)
					return 1
				}
			} else if err := unix.Setpriority(unix.PRIO_PROCESS, tid, 19); err != nil {
				say("nice fail: %v", err)
				return 1
			}
			exe, _ := os.Executable()
			err := syscall.Exec(exe, os.Args, append(os.Environ(), loweredEnv+"=1"))
			say("exec fail: %v", err)
			return 1
		}
		for i := 0; i < 4; i++ {
			go func() {
				for {
				}
			}()
		}
		say("spinning")
		select {}
	case "stop":
		say("stopping")
		syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		say("resumed")
	case "noterm":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		say("ignoring")
		select {}
	case "setsid":
		// A child in a session of its own that outlives us, holding our stdout.
		p, err := self("sleep:1h", true)
		if err != nil {
			say("setsid fail: %v", err)
			return 1
		}
		say("child %d", p.Pid)
		if arg == "exit" {
			return 0
		}
		select {}
	case "orphan":
		p, err := self("sleep:1h", false)
		if err != nil {
			return 1
		}
		say("child %d", p.Pid)
		return 0
	case "forkbomb":
		for {
			if _, err := self("forkbomb", false); err != nil {
				say("fork refused: %v", err)
				time.Sleep(time.Hour)
			}
		}
	case "threads":
		n := 0
		for {
			ready := make(chan struct{})
			go func() {
				runtime.LockOSThread()
				close(ready)
				select {}
			}()
			<-ready
			n++
			if n%10 == 0 {
				say("threads %d", n)
			}
		}
	case "memory":
		mb, _ := strconv.Atoi(arg)
		var keep [][]byte
		for i := 0; i < mb; i++ {
			b := make([]byte, 1<<20)
			for j := range b {
				b[j] = byte(j)
			}
			keep = append(keep, b)
		}
		say("allocated %d MiB", len(keep))
		time.Sleep(time.Hour)
	case "memsplit":
		// Four children each take arg MiB.
		for i := 0; i < 4; i++ {
			if _, err := self("memory:"+arg, false); err != nil {
				say("child fail: %v", err)
			}
		}
		time.Sleep(time.Hour)
	case "disk":
		f, err := os.CreateTemp(arg, "fill-")
		total := 0
		if err == nil {
			buf := make([]byte, 1<<20)
			for {
				n, werr := f.Write(buf)
				total += n
				if werr != nil {
					err = werr
					break
				}
			}
		}
		// Many small files next.
		files := 0
		for ; files < 100000; files++ {
			if os.WriteFile(fmt.Sprintf("%s/small-%d", arg, files), []byte("x"), 0o644) != nil {
				break
			}
		}
		say("disk wrote %d MiB then %v; %d small files", total>>20, err, files)
	case "fds":
		n := 0
		var err error
		for ; n < 1<<20; n++ {
			if _, err = os.Open("/dev/null"); err != nil {
				break
			}
		}
		say("fds opened %d then %v", n, err)
	case "flood":
		buf := []byte(strings.Repeat("x", 1<<16))
		f := os.Stdout
		if arg == "stderr" {
			f = os.Stderr
		}
		for {
			if _, err := f.Write(buf); err != nil {
				return 3
			}
		}
	case "exec":
		// Write a program into the work dir and run it.
		dst := arg + "/prog"
		exe, _ := os.Executable()
		b, _ := os.ReadFile(exe)
		err := os.WriteFile(dst, b, 0o755)
		if err == nil {
			err = exec.Command(dst).Run()
		}
		say("exec %s", result(err))
	default:
		return 99
	}
	return 0
}

// forbidden makes a system call the seccomp filter kills for.
func forbidden(what string) int {
	var err error
	switch what {
	case "ptrace":
		err = unix.PtraceAttach(1)
	case "keyctl":
		_, err = unix.KeyctlInt(unix.KEYCTL_GET_KEYRING_ID, unix.KEY_SPEC_SESSION_KEYRING, 0, 0, 0)
	case "mount":
		err = unix.Mount("none", "/tmp", "tmpfs", 0, "")
	case "unshare":
		err = unix.Unshare(unix.CLONE_NEWUSER)
	case "bpf":
		_, _, e := unix.Syscall(unix.SYS_BPF, 0, 0, 0)
		err = e
	case "io_uring":
		_, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, 0, 0)
		err = e
	case "perf":
		_, _, e := unix.Syscall6(unix.SYS_PERF_EVENT_OPEN, 0, 0, ^uintptr(0), ^uintptr(0), 0, 0)
		err = e
	case "x32":
		// getpid through the x32 ABI: same audit arch, numbers offset by 0x40000000.
		_, _, e := unix.Syscall(unix.SYS_GETPID|0x40000000, 0, 0, 0)
		err = e
	case "clone-newns":
		_, _, e := unix.RawSyscall(unix.SYS_CLONE, unix.CLONE_NEWNET|uintptr(syscall.SIGCHLD), 0, 0)
		if e == 0 {
			// We are the parent or the child; either way report and leave.
			err = nil
		} else {
			err = e
		}
		say("syscall %s %s", what, result(err))
		return 0
	default:
		return 98
	}
	say("syscall %s survived: %s", what, result(err))
	return 0
}

// burn spins until this process has used d more CPU time.
func burn(d time.Duration) {
	used := func() time.Duration {
		var ru syscall.Rusage
		_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	for end := used() + d; used() < end; {
	}
}
