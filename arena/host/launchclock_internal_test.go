package host

import (
	"bufio"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

// A bot that has printed its handshake waits on the host, however late the host reads it (a
// host starved beside busy loops read a Python bot's line 40 s late, and the bot was charged
// "40 s of its own waiting"): the launch is not charged while the line waits unread in the
// pipe. Once the host has read it, a bot that then only sleeps is charged its own waiting,
// and the report says where its threads wait.
func TestLaunchWaitingOnTheHostIsNotCharged(t *testing.T) {
	t.Parallel()
	p, err := sandbox.Start(sandbox.Spec{Name: "printer", Path: "/bin/sh", Args: []string{"sh", "-c", "echo line; exec /bin/sleep 3600"},
		ReadOnly: []string{"/bin/sleep"}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	if _, ok := p.CPUTime(); !ok {
		t.Fatal("the launch clock needs the sandbox's cgroup cpu layer, which is missing here ('arena sandbox check')")
	}
	const allow = time.Second
	w := watchLaunch(p, allow, func() bool { return p.StdoutUnread() > 0 })
	defer w.done()
	for deadline := time.Now().Add(slack.Of(t, 5*time.Second)); p.StdoutUnread() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the line never reached the pipe")
		}
	}
	// Three allowances of waiting on the host (the stall limit is ten).
	select {
	case <-w.tripped:
		t.Fatalf("stopped while its line waited for the host: %v", w.tripErr())
	case <-time.After(time.Until(w.t0.Add(3 * allow))):
	}
	if _, err := bufio.NewReader(p.Stdout()).ReadString('\n'); err != nil {
		t.Fatal(err)
	}
	select {
	case <-w.tripped:
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("a bot sleeping after its line was read was never charged")
	}
	err = w.tripErr()
	if !errors.Is(err, ErrNoHandshake) || !strings.Contains(err.Error(), "of its own time") || !strings.Contains(err.Error(), "its threads now: ") {
		t.Fatalf("want its own waiting charged, with where its threads wait; got %v", err)
	}
	t.Log(err)
}
