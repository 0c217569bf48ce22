package attack

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

// Round is the round in which every attack strikes: late enough that the match is under way.
const Round = 3

// childEnv makes a copy of the bot run a helper instead of serving (fork bomb, memory child).
const childEnv = "HOSTILE_CHILD"

// Names lists every attack, each also a bots/hostile/<name> command.
var Names = []string{"busyloop", "sleeper", "stopper", "noterm", "forkbomb", "threadbomb", "setsid",
	"orphan", "memory", "memsplit", "disk", "fds", "flood", "secrets", "writer", "network", "sockets",
	"killer", "tracer", "idleburn"}

// Main serves a dynamite bot that plays paper and strikes with the named attack.
func Main(name string) {
	if c := os.Getenv(childEnv); c != "" {
		child(c)
		return
	}
	if name == PingFlood {
		servePingFlood()
		return
	}
	if isRaw(name) {
		serveRaw(name)
		return
	}
	switch name {
	case "noterm":
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	case "stopper":
		// The kernel's SIGHUP to an orphaned stopped group must not end it either.
		signal.Ignore(syscall.SIGHUP)
	case "idleburn":
		// Burn CPU between turns (and during them) on every core.
		for i := 0; i < 4; i++ {
			go func() {
				for {
				}
			}()
		}
	case "setsid":
		// A child in its own session, holding copies of our stdout and stderr.
		if err := spawn("sleep", true); err != nil {
			report(name, err)
		}
	}
	sdk.Serve(sdk.Bot{Name: "hostile-" + name, Games: []sdk.Game{dynamite.Play(func() dynamite.Player { return &player{name: name} })}})
}

type player struct{ name string }

func (p *player) Move(s *dynamite.State) dynamite.Move {
	if s.Round == Round {
		strike(p.name)
	}
	if p.name == "idleburn" {
		// Answer in time, slowly enough that the match lasts while the threads burn.
		time.Sleep(5 * time.Millisecond)
	}
	return dynamite.Paper
}

// report writes the attack's outcome to stderr, where the host keeps it. An attack that got
// through says SUCCEEDED, and the hostile tests fail on that word.
func report(name string, err error) {
	if err != nil {
		fmt.Fprintf(os.Stderr, "hostile %s: blocked: %v\n", name, err)
	} else {
		fmt.Fprintf(os.Stderr, "hostile %s: SUCCEEDED\n", name)
	}
}

func strike(name string) {
	switch name {
	case "busyloop", "noterm":
		for {
		}
	case "flood":
		go flood(os.Stdout)
		flood(os.Stderr)
	case "sleeper":
		time.Sleep(time.Hour)
	case "stopper":
		// Stopped again whenever something continues it: the kernel sends SIGHUP and SIGCONT
		// to a stopped process whose group becomes orphaned, which let a one-shot stop answer
		// after all once (SIGHUP ignored, as it is here).
		for {
			_ = syscall.Kill(os.Getpid(), syscall.SIGSTOP)
		}
	case "forkbomb":
		for {
			if err := spawn("forkbomb", false); err != nil {
				report(name, err)
				time.Sleep(time.Hour)
			}
		}
	case "threadbomb":
		for {
			ready := make(chan struct{})
			go func() {
				runtime.LockOSThread()
				close(ready)
				select {}
			}()
			<-ready
		}
	case "setsid", "orphan":
		if name == "orphan" {
			if err := spawn("sleep", false); err != nil {
				report(name, err)
			}
		}
		// The main process leaves; its child must not stay.
		fmt.Fprintf(os.Stderr, "hostile %s: leaving a child behind\n", name)
		os.Exit(0)
	case "memory":
		var keep [][]byte
		for {
			b := make([]byte, 16<<20)
			for i := 0; i < len(b); i += 4096 {
				b[i] = 1
			}
			keep = append(keep, b)
		}
	case "memsplit":
		for i := 0; i < 8; i++ {
			if err := spawn("memory", false); err != nil {
				report(name, err)
			}
		}
		time.Sleep(time.Hour)
	case "disk":
		report(name, fill(os.TempDir()))
	case "fds":
		var files []*os.File
		var err error
		for len(files) < 1<<20 {
			var f *os.File
			if f, err = os.Open(os.DevNull); err != nil {
				break
			}
			files = append(files, f)
		}
		for _, f := range files {
			f.Close()
		}
		report(name, err)
	case "secrets":
		for _, p := range SecretFiles {
			_, err := os.ReadFile(p)
			report(name+" "+p, err)
		}
		// The opponent's work dir (same root as ours, another name).
		own := filepath.Dir(os.Getenv("PLUGIN_UNIX_SOCKET_DIR"))
		ms, _ := filepath.Glob(filepath.Join(filepath.Dir(own), "arena-bot-*"))
		for _, m := range ms {
			if m != own {
				_, err := os.ReadDir(m)
				report(name+" "+m, err)
			}
		}
	case "writer":
		exe, _ := os.Executable()
		for _, p := range []string{"/etc/passwd", "/pwned", exe, "/work/main/pwned", "/root/pwned"} {
			report(name+" "+p, os.WriteFile(p, []byte("pwned"), 0o644))
		}
	case "network":
		for _, a := range []string{"127.0.0.1:22", "1.1.1.1:443", "[::1]:22"} {
			c, err := net.DialTimeout("tcp", a, 300*time.Millisecond)
			if err == nil {
				c.Close()
			}
			report(name+" tcp "+a, err)
		}
		c, err := net.Dial("udp", "1.1.1.1:53")
		if err == nil {
			_, err = c.Write([]byte("leak"))
			c.Close()
			if err == nil {
				err = fmt.Errorf("sent (but nowhere to go: check the network layer)")
			}
		}
		report(name+" udp", err)
	case "sockets":
		// The opponent's plugin socket lives in its work dir: look for every plugin socket.
		found := 0
		for _, pat := range []string{"/tmp/arena-bot-*/plugin-dir*/plugin*", "/tmp/*/plugin-dir*/plugin*", "/run/*/plugin*"} {
			ms, _ := filepath.Glob(pat)
			for _, m := range ms {
				if strings.HasPrefix(m, os.Getenv("PLUGIN_UNIX_SOCKET_DIR")) {
					continue // our own
				}
				found++
				c, err := net.DialTimeout("unix", m, 300*time.Millisecond)
				if err == nil {
					c.Close()
				}
				report(name+" "+m, err)
			}
		}
		if found == 0 {
			report(name, fmt.Errorf("no other plugin socket visible"))
		}
	case "killer":
		// Everything but our own threads (a thread id signals its whole process).
		own := map[int]bool{}
		tasks, _ := os.ReadDir("/proc/self/task")
		for _, t := range tasks {
			var n int
			fmt.Sscan(t.Name(), &n)
			own[n] = true
		}
		own[os.Getpid()] = true
		killed := 0
		for pid := 1; pid < 1<<16; pid++ {
			if !own[pid] && syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed++
			}
		}
		if killed > 0 {
			report(name, nil)
		} else {
			report(name, fmt.Errorf("no process could be signalled"))
		}
	case "tracer":
		report(name, ptraceAttach(1))
	}
}

// SecretFiles are host files no bot may read: system secrets, root's files, the sandbox's
// state, and a secret the hostile tests plant in the host's temp dir.
var SecretFiles = []string{"/etc/shadow", "/root/.profile", "/root/.bashrc", "/run/arena-sandbox/slots/0",
	"/proc/1/environ", "/tmp/arena-hostile-secret"}

func fill(dir string) error {
	f, err := os.CreateTemp(dir, "fill-")
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 1<<20)
	for i := 0; i < 1<<14; i++ { // at most 16 GiB
		if _, err := f.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

func flood(f *os.File) {
	buf := []byte(strings.Repeat("flood ", 10000))
	for {
		if _, err := f.Write(buf); err != nil {
			return
		}
	}
}

// spawn starts a copy of this binary as a helper child.
func spawn(what string, setsid bool) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), childEnv+"="+what)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid}
	return cmd.Start()
}

// child runs a helper copy.
func child(what string) {
	switch what {
	case "sleep":
		time.Sleep(time.Hour)
	case "forkbomb":
		for {
			if spawn("forkbomb", false) != nil {
				time.Sleep(time.Hour)
			}
		}
	case "memory":
		strike("memory")
	}
}
