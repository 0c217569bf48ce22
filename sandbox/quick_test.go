package sandbox

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"testing"
)

const actEnv = "SANDBOX_TEST_ACT"

func runAct(act string) int {
	switch act {
	case "ls":
		for _, p := range []string{"/", "/tmp", os.Getenv("WD"), os.Getenv("WD") + "/.."} {
			st, err := os.Stat(p)
			if err != nil {
				println(p, err.Error())
				continue
			}
			println(p, st.Mode().String(), fmt.Sprint(st.Sys().(*syscall.Stat_t).Uid))
		}
		return 0
	case "exit7":
		os.Exit(7)
	case "hello":
		os.Stdout.WriteString("hello from inside\n")
		return 0
	}
	return 99
}

func TestQuick(t *testing.T) {
	Probe().Write(os.Stdout)
	if os.Getenv("NOLL") != "" {
		getPlan().landlock = 0
	}
	work := t.TempDir()
	exe, _ := os.Executable()
	p, err := Start(Spec{Name: "hello", Path: exe, Env: []string{actEnv + "=" + os.Getenv("ACT"), "WD=" + work}, WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(p.Stdout())
	e, _ := io.ReadAll(p.Stderr())
	err = p.Wait()
	t.Logf("out=%q err=%q wait=%v reason=%v usage=%+v", out, e, err, p.Reason(), p.Usage())
}

func TestExitTiming(t *testing.T) {
	exe, _ := os.Executable()
	for i := 0; i < 3; i++ {
		t0 := time.Now()
		p, err := Start(Spec{Name: "exit", Path: exe, Env: []string{actEnv + "=exit7"}, WorkDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		io.ReadAll(p.Stdout())
		t2 := time.Now()
		p.Wait()
		t.Logf("start %v, run %v, eof->done %v reason %v", t1.Sub(t0), t2.Sub(t1), time.Since(t2), p.Reason())
	}
}

func TestPyExitTiming(t *testing.T) {
	for i := 0; i < 2; i++ {
		t0 := time.Now()
		p, err := Start(Spec{Name: "pyexit", Path: "python3", Args: []string{"python3", "-c", "import grpc, os, sys, threading, time\nfrom concurrent import futures\ns=grpc.server(futures.ThreadPoolExecutor(4))\ns.start()\nprint('bye', file=sys.stderr, flush=True)\nos._exit(7)"}, WorkDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		t1 := time.Now()
		go io.ReadAll(p.Stdout())
		e, _ := io.ReadAll(p.Stderr())
		t2 := time.Now()
		p.Wait()
		t.Logf("start %v, run %v, eof->done %v reason %v err %q", t1.Sub(t0), t2.Sub(t1), time.Since(t2), p.Reason(), e)
	}
}
