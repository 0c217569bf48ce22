//go:build linux && !arenadegraded

package sandbox

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// freshEnv makes the test binary a fresh machine's first arena: in a mount namespace of its
// own with an empty /run, it opens the files store before anything else, then starts a bot.
const freshEnv = "SANDBOX_TEST_FRESH_RUN"

func freshRun() int {
	if err := unix.Mount("tmpfs", "/run", "tmpfs", 0, "mode=0755"); err != nil {
		fmt.Println("error: an empty /run:", err)
		return 1
	}
	if _, err := ensureFiles(); err != nil {
		fmt.Println("error: files store:", err)
		return 1
	}
	if l, _ := Probe().Layer(LayerMountNS); !l.Active {
		fmt.Println("error: the mount namespace after the files store:", l.Detail)
		return 1
	}
	exe, _ := os.Executable()
	p, err := Start(Spec{Name: "fresh", Path: exe, Env: []string{actEnv + "=hello"}, WorkDir: os.Getenv(freshEnv)})
	if err != nil {
		fmt.Println("error: start:", err)
		return 1
	}
	out, _ := io.ReadAll(p.Stdout())
	fmt.Printf("bot said %q\n", out)
	return 0
}

// TestFreshMachineFilesStoreFirst: on a brand-new machine the files store may be opened
// before any bot starts (a build, a snapshot). It must not leave the sandbox's state dir
// closed to the bots' uids, or every later bot loses its mount namespace ("permission denied").
func TestFreshMachineFilesStoreFirst(t *testing.T) {
	need(t, LayerMountNS, LayerUID)
	if os.Geteuid() != 0 {
		t.Fatal("the mount and uid layers are active but the test does not run as root")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Fatalf("unshare (util-linux) is needed to give this test a /run of its own: %v", err)
	}
	exe, _ := os.Executable()
	cmd := exec.Command(unshare, "-m", "--propagation", "private", exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), freshEnv+"="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `bot said "hello`) {
		t.Fatalf("a bot after the files store on a fresh machine: %v\n%s", err, out)
	}
}
