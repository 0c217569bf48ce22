package host

import (
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

// idleBot starts a sandboxed process that sleeps (no CPU time, no thread runnable): a bot that
// never reads its request, as the clock sees one.
func idleBot(t *testing.T) *sandbox.Process {
	t.Helper()
	p, err := sandbox.Start(sandbox.Spec{Name: "idle", Path: "/bin/sleep", Args: []string{"sleep", "3600"}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	if _, ok := p.CPUTime(); !ok {
		t.Fatal("the CPU clock needs the sandbox's cgroup cpu layer, which is missing here ('arena sandbox check')")
	}
	time.Sleep(50 * time.Millisecond) // past its start-up
	return p
}

// limit is the moves' CPU budget here (the wall cap is 3 x that, the default).
const limit = 50 * time.Millisecond

// watchMove runs one move of proc under the clock until a limit stops it.
func watchMove(t *testing.T, proc *sandbox.Process, written bool) MoveUsage {
	t.Helper()
	var w clockWatch
	stopped := make(chan struct{})
	c0, _ := proc.CPUTime()
	w.begin(proc, c0, limit, 3*limit, func() { close(stopped) }, written)
	if written {
		w.written()
	}
	select {
	case <-stopped:
	case <-time.After(slack.Of(t, time.Minute)):
		t.Fatal("no limit stopped a bot that never answers")
	}
	return w.end()
}

// A bot that never touches its request is charged its own waiting, not passed off as a machine
// stall (which would void a match it is losing): where the transport marks the request
// written, at its wall cap; where the clock must infer it from the bot's first CPU time, at the
// stall limit, the host's polls having run on time.
func TestBotThatNeverReadsItsRequestIsCharged(t *testing.T) {
	t.Parallel()
	p := idleBot(t)
	for _, written := range []bool{true, false} {
		u := watchMove(t, p, written)
		if u.Cause != CauseWait {
			t.Fatalf("written %v: stopped by %v (%s), want its own waiting", written, u.Cause, u.Figures())
		}
		if !written && u.Wall < 3*limit*StallFactor {
			t.Fatalf("charged after %v of wall time, before the stall limit: the request's way to it is not its time until it runs", u.Wall)
		}
		t.Logf("written %v: %s", written, u.Figures())
	}
}
