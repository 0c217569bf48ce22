//go:build linux && !arenadegraded

package sandbox

import (
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

// degradedPlan is this machine's plan with every namespace, cgroup and Landlock taken away,
// as on a laptop or in a container: only rlimits, seccomp, the process group and the
// subreaper remain.
func degradedPlan() *plan { return getPlan().bare(true) }

func TestDegradedStillKillsEverything(t *testing.T) {
	t.Parallel()
	exe, _ := os.Executable()
	// (A fork bomb is beyond this mode: without a pids cgroup or a uid of its own nothing bounds
	// its process count, and the report says so.)
	for _, a := range []string{"setsid", "stop", "orphan", "noterm"} {
		a := a
		t.Run(a, func(t *testing.T) {
			t.Parallel()
			p, err := startWith(degradedPlan(), Spec{Name: a, Path: exe, Env: []string{actEnv + "=" + a},
				WorkDir: t.TempDir(), Limits: Limits{Processes: 30}})
			if err != nil {
				t.Fatal(err)
			}
			go func() {
				var b [4096]byte
				for {
					if _, err := p.Stderr().Read(b[:]); err != nil {
						return
					}
				}
			}()
			var out strings.Builder
			buf := make([]byte, 4096)
			n, _ := p.Stdout().Read(buf)
			out.Write(buf[:n])
			time.Sleep(100 * time.Millisecond) // let the tree grow
			t0 := time.Now()
			if err := p.Kill(); err != nil {
				t.Fatal(err)
			}
			slack.Within(t, "kill", time.Since(t0), 0, 500*time.Millisecond) // no grace period for the tree
			assertNoLeftovers(t, p)
			// The degraded bot has no uid of its own, so assertNoLeftovers cannot find its
			// children: the ones it names must be gone too (a setsid child once outlived the
			// kill by the host's init adopting it).
			var child int
			if _, err := fmt.Sscanf(strings.TrimSpace(out.String()), "child %d", &child); err == nil && child > 0 {
				deadline := time.Now().Add(slack.Of(t, 2*time.Second))
				for !zombie(child) {
					if time.Now().After(deadline) {
						_ = syscall.Kill(child, syscall.SIGKILL)
						t.Fatalf("%s: child %d outlived the kill", a, child)
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}
