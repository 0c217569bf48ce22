package e2e_test

import (
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/botarena/arena/arena/internal/proctable"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/internal/slack"
)

// TestInterruptStopsEveryBot sends Ctrl-C to a real arena play whose bot hangs: the arena must
// exit promptly and leave no bot process behind.
func TestInterruptStopsEveryBot(t *testing.T) {
	t.Parallel()
	bin, err := testenv.BuildArena(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "play", "dynamite", "--deadline", "60s",
		bot("arena/e2e/testdata/sleepy.py"), bot("bots/dynamite/cmd/paper"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Wait until both bots run and the sleepy one hangs in round 3.
	var kids []int
	// Starting includes building the Go bot on a cold files store: minutes on a busy machine.
	for deadline := time.Now().Add(slack.Of(t, 60*time.Second)); len(kids) < 2; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("bots did not start:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
		kids = proctable.Children(cmd.Process.Pid)
	}
	time.Sleep(time.Second)
	t0 := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(slack.Of(t, 5*time.Second)):
		cmd.Process.Kill()
		t.Fatalf("arena still running %v after Ctrl-C:\n%s", slack.Of(t, 5*time.Second), out.String())
	}
	// The sleepy bot hangs for the whole 60s deadline: stopping must not wait for it.
	slack.Within(t, "stopping after Ctrl-C", time.Since(t0), 0, 2*time.Second)
	if cmd.ProcessState.ExitCode() == 0 || !strings.Contains(out.String(), "context canceled") {
		t.Errorf("exit %d after Ctrl-C, output:\n%s", cmd.ProcessState.ExitCode(), out.String())
	}
	for _, k := range kids {
		proctable.AssertGone(t, k)
	}
}
