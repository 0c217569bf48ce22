package proctable

import (
	"os/exec"
	"testing"
)

func TestSeesAProcessUntilItIsReaped(t *testing.T) {
	t.Parallel()
	cmd := exec.Command("sleep", "30")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if len(Of(pid)) == 0 {
		t.Fatal("a running process is not in the table")
	}
	cmd.Process.Kill()
	if len(Of(pid)) == 0 {
		t.Fatal("killed but not yet reaped: the zombie must still be seen")
	}
	cmd.Wait()
	AssertGone(t, pid)
}
