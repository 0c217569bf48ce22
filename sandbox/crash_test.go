//go:build linux && !arenadegraded

package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// arenaEnv makes the test binary act as a small arena that starts one sandbox and waits to
// be killed, as a crashing arena would be.
const arenaEnv = "SANDBOX_TEST_ARENA"

func miniArena() int {
	exe, _ := os.Executable()
	work := os.Getenv(arenaEnv)
	p, err := Start(Spec{Name: "victim", Path: exe, Env: []string{actEnv + "=setsid"}, WorkDir: work})
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	go func() {
		sc := bufio.NewScanner(p.Stdout())
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "child") {
				fmt.Printf("started %d %d %s\n", p.Pid(), p.HostUID(), p.cg.dirs[cgPids])
			}
		}
	}()
	time.Sleep(time.Hour)
	return 0
}

func TestArenaCrashLeavesNothingAndCleanupRemovesTheRest(t *testing.T) {
	need(t, LayerPIDNS)
	exe, _ := os.Executable()
	work := t.TempDir()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), arenaEnv+"="+work)
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var initPid, uid int
	var cgDir string
	lines := make(chan string, 1)
	go func() {
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case l := <-lines:
		f := strings.Fields(l)
		if len(f) < 3 || f[0] != "started" {
			t.Fatalf("mini arena: %q", l)
		}
		initPid, _ = strconv.Atoi(f[1])
		uid, _ = strconv.Atoi(f[2])
		if len(f) > 3 {
			cgDir = f[3]
		}
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("mini arena did not start its sandbox")
	}
	if len(processesOfUID(uid)) < 2 {
		t.Fatalf("expected the bot and its setsid child running as uid %d", uid)
	}
	// The arena crashes.
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	deadline := time.Now().Add(slack.Of(t, 2*time.Second))
	for {
		_, err := os.Stat("/proc/" + strconv.Itoa(initPid))
		left := processesOfUID(uid)
		if os.IsNotExist(err) && len(left) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the arena died: init present=%v, bot processes %v", err == nil, left)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Its cgroup and work-dir mount are stale now; the next arena cleans them.
	rep, err := Cleanup()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("cleanup: %v", rep)
	if cgDir != "" {
		if _, err := os.Stat(cgDir); !os.IsNotExist(err) {
			t.Errorf("stale cgroup %s still there (%v)", cgDir, err)
		}
	}
	// (Another arena starting on the machine may have cleaned some of it first: check the
	// state, not the counts.)
	mi, _ := os.ReadFile("/proc/self/mountinfo")
	if strings.Contains(string(mi), work) {
		t.Errorf("work dir %s still mounted", work)
	}
	if _, err := os.Stat(filepath.Join(work)); !os.IsNotExist(err) {
		t.Errorf("stale work dir %s still there", work)
	}
}
