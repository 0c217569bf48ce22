package sandbox

import (
	"fmt"
	"io"
	"os"
	"syscall"
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
