package host

import (
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
	"github.com/botarena/arena/sandbox"
)

// An ended bot's last words are kept however late the host's copier runs: drained waits while
// the output pipes hold unread bytes, past its grace (a copier starved beside four busy loops
// lost a crashing bot's last stderr line after 500 ms, CI26), and returns once they are read.
func TestDrainedWaitsForUnreadOutput(t *testing.T) {
	t.Parallel()
	p := lastWords(t)
	r := &procRunner{proc: p}
	r.copies.Add(1) // a copier that has not run yet
	returned := make(chan struct{})
	go func() { r.drained(50 * time.Millisecond); close(returned) }()
	select {
	case <-returned:
		t.Fatal("drained gave up while the bot's last words were unread")
	case <-time.After(300 * time.Millisecond):
	}
	// The copier runs at last: it reads the pipe to its end.
	if _, err := io.Copy(io.Discard, p.Stderr()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-returned:
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("drained did not return once the output was read")
	}
	r.copies.Done()
}

// A move whose connection broke because the bot ended is charged with the bot's last words:
// broken waits, as Close does, for what the tree left in its pipes before the fault's text
// quotes the log's tail (beside busy loops the copier had not run yet, and a crash was
// reported without its stderr line).
func TestBrokenWaitsForTheLastWords(t *testing.T) {
	t.Parallel()
	p := lastWords(t)
	r := &procRunner{proc: p, exited: make(chan struct{})}
	close(r.exited)
	r.copies.Add(1) // a copier that has not run yet
	s := &Seat{bot: &Bot{rn: r}}
	returned := make(chan error, 1)
	go func() { returned <- s.broken(io.ErrUnexpectedEOF) }()
	select {
	case err := <-returned:
		t.Fatalf("broken returned (%v) while the bot's last words were unread", err)
	case <-time.After(300 * time.Millisecond):
	}
	if _, err := io.Copy(io.Discard, p.Stderr()); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-returned:
		if !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "exited with status 3") {
			t.Fatalf("broken: %v, want ErrDead with how the bot ended", err)
		}
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("broken did not return once the output was read")
	}
	r.copies.Done()
}

// lastWords is a sandboxed bot that wrote a line to stderr and exited, its line still unread.
func lastWords(t *testing.T) *sandbox.Process {
	t.Helper()
	p := shellBot(t, "echo about to fail >&2; exit 3")
	_ = p.Wait()
	if p.StderrUnread() == 0 {
		t.Fatal("the bot's stderr line is not waiting in its pipe")
	}
	return p
}

// shellBot runs script with the sandbox's /bin/sh, killed at the test's end.
func shellBot(t *testing.T, script string) *sandbox.Process {
	t.Helper()
	p, err := sandbox.Start(sandbox.Spec{Name: "words", Path: "/bin/sh", Args: []string{"sh", "-c", script}, WorkDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.Kill() })
	return p
}

// gated is a source whose reads wait for gate: a copier the machine has not run yet.
type gated struct {
	r    io.Reader
	gate chan struct{}
}

func (g gated) Read(b []byte) (int, error) {
	<-g.gate
	return g.r.Read(b)
}

// A report that quotes a live bot's log first flushes it: flush returns only once what the bot
// wrote is in the log (not while the copier has yet to run), and on a pipe with nothing to copy
// it wakes the copier waiting in its read and returns well before its cap.
func TestFlushLogWaitsForTheCopier(t *testing.T) {
	t.Parallel()
	p := liveWords(t)
	log := NewLog(1<<10, 1<<10)
	gate := make(chan struct{})
	c := &logCopy{src: gated{p.Stderr(), gate}, dst: log, unread: p.StderrUnread, wake: p.StderrDeadline}
	go c.run()
	flushed := make(chan struct{})
	go func() { c.flush(time.Minute); close(flushed) }()
	select {
	case <-flushed:
		t.Fatal("flush returned before the copier had run")
	case <-time.After(300 * time.Millisecond):
	}
	close(gate)
	select {
	case <-flushed:
	case <-time.After(slack.Of(t, 10*time.Second)):
		t.Fatal("flush did not return once the copier ran")
	}
	if tail := log.Tail(1); len(tail) != 1 || tail[0] != "last words" {
		t.Fatalf("log after flush: %q, want the bot's line", tail)
	}
	// Nothing left: the copier waits in its read, and flush must wake it.
	t0 := time.Now()
	c.flush(time.Minute)
	if took := time.Since(t0); took > slack.Of(t, 10*time.Second) {
		t.Fatalf("flush of an empty pipe took %v: the copier was not woken", took)
	}
}

// A bot that keeps its stderr pipe full is flushed once: the flush that ran out of time marks
// it, and later flushes (one per seat and report) do not wait again.
func TestFlushLogGivesUpOnAFlood(t *testing.T) {
	t.Parallel()
	p := liveWords(t)
	never := make(chan struct{}) // the copier never gets to the bytes: as full as a flood
	c := &logCopy{src: gated{p.Stderr(), never}, dst: NewLog(1<<10, 1<<10), unread: p.StderrUnread, wake: p.StderrDeadline}
	go c.run()
	t.Cleanup(func() { close(never) })
	c.flush(100 * time.Millisecond)
	t0 := time.Now()
	c.flush(time.Minute)
	if took := time.Since(t0); took > slack.Of(t, 10*time.Second) {
		t.Fatalf("the second flush of a flooded pipe waited %v", took)
	}
}

// liveWords is a sandboxed bot that wrote a line to stderr and stopped itself, alive, its line
// in the pipe.
func liveWords(t *testing.T) *sandbox.Process {
	t.Helper()
	p := shellBot(t, "echo last words >&2; kill -STOP $$")
	for end := time.Now().Add(slack.Of(t, 10*time.Second)); p.StderrUnread() == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the bot's line never reached its stderr pipe")
		}
	}
	return p
}
