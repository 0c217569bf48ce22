package budget

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"testing"
	"time"

	"github.com/botarena/arena/internal/slack"
)

func TestSlots(t *testing.T) {
	s := NewSlots(1, 1, 50*time.Millisecond)
	release, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// One waiter fits the queue and gives up after the wait; a second one is refused at once.
	waited := make(chan error)
	go func() {
		_, err := s.Acquire(context.Background())
		waited <- err
	}()
	for len(s.queue) < 2 {
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Acquire(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("a caller past the queue: %v, want ErrBusy", err)
	}
	if err := <-waited; !errors.Is(err, ErrBusy) {
		t.Fatalf("a waiter past the wait: %v, want ErrBusy", err)
	}
	release()
	release2, err := s.Acquire(context.Background())
	if err != nil {
		t.Fatalf("a free slot: %v", err)
	}
	release2()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	hold, _ := s.Acquire(context.Background())
	if _, err := s.Acquire(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("a caller that went away: %v", err)
	}
	hold()
	if len(s.queue) != 0 || len(s.work) != 0 {
		t.Fatalf("slots leaked: %d queued, %d working", len(s.queue), len(s.work))
	}
}

func TestPerKey(t *testing.T) {
	p := NewPerKey(2)
	a, _ := p.Take("a")
	_, _ = p.Take("a")
	if _, ok := p.Take("a"); ok {
		t.Fatal("a third for a key with a limit of 2")
	}
	if _, ok := p.Take("b"); !ok {
		t.Fatal("another key refused")
	}
	a()
	a() // releasing twice counts once
	if p.Held("a") != 1 {
		t.Fatalf("held %d, want 1", p.Held("a"))
	}
}

// A client past its connections is closed at once; an exempt address is not counted.
func TestListener(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := NewListener(ln, 2, 100, nil)
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_ = c // held open
		}
	}()
	var conns []net.Conn
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// The third is closed by the server; the first two stay open.
	conns[2].SetReadDeadline(time.Now().Add(slack.Of(t, 10*time.Second)))
	if _, err := conns[2].Read(make([]byte, 1)); err != io.EOF && !isReset(err) {
		t.Fatalf("the third connection: %v, want closed", err)
	}
	if n := l.Held("127.0.0.1"); n != 2 {
		t.Fatalf("held %d, want 2", n)
	}
	conns[0].SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := conns[0].Read(make([]byte, 1)); err == nil || err == io.EOF {
		t.Fatalf("the first connection was closed: %v", err)
	}
}

// An exempt address (a trusted proxy) is not limited per client.
func TestListenerExempt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l := NewListener(ln, 1, 100, func(a netip.Addr) bool { return a.IsLoopback() })
	defer l.Close()
	accepted := make(chan net.Conn, 3)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	for range 3 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		<-accepted
	}
}

func isReset(err error) bool {
	var ne *net.OpError
	return errors.As(err, &ne) && !ne.Timeout()
}
