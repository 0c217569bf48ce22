package host

import (
	"bytes"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/http2"

	"github.com/botarena/arena/sdk/handshake"
)

// bufConn is a connection whose reads come from a buffer, in pieces of an awkward size so the
// frame headers straddle reads; writes are discarded.
type bufConn struct {
	net.Conn
	r     bytes.Reader
	piece int
}

func (c *bufConn) Read(p []byte) (int, error)  { return c.r.Read(p[:min(len(p), c.piece)]) }
func (c *bufConn) Write(p []byte) (int, error) { return len(p), nil }

// frames builds a stream of frames with x/net's framer.
func frames(t *testing.T, build func(fr *http2.Framer)) []byte {
	t.Helper()
	var b bytes.Buffer
	build(http2.NewFramer(&b, nil))
	return b.Bytes()
}

func pings(n int) func(*http2.Framer) {
	return func(fr *http2.Framer) {
		for i := range n {
			_ = fr.WritePing(false, [8]byte{byte(i)})
		}
	}
}

// readAll reads the guard until it fails; it returns the reason the guard gave, if any.
func readAll(g *frameGuard) (why string, err error) {
	g.flood = func(w string) { why = w }
	buf := make([]byte, 4096)
	for {
		if _, err = g.Read(buf); err != nil {
			return why, err
		}
	}
}

func TestFrameGuardChargesAControlFlood(t *testing.T) {
	t.Parallel()
	c := &bufConn{piece: 7}
	c.r.Reset(frames(t, pings(ControlBurst+1)))
	// The connection is made to start an hour from now, so its age earns it nothing however
	// long the test runs: beside four busy loops the reads took over 10 ms, which earned the
	// one frame the flood needed to pass (CI25).
	g := &frameGuard{Conn: c, start: time.Now().Add(time.Hour)}
	// The host's answers to the flood (its PING ACKs) earn the flood nothing.
	acks := frames(t, func(fr *http2.Framer) {
		for range ControlBurst {
			_ = fr.WritePing(true, [8]byte{})
		}
	})
	if _, err := g.Write(acks); err != nil {
		t.Fatal(err)
	}
	why, err := readAll(g)
	if !errors.Is(err, errFlood) {
		t.Fatalf("read error %v, want errFlood", err)
	}
	for _, want := range []string{"sent 1025 HTTP/2 control frames (the last a PING)", "over the limit of 1024 + 8 for each of the 0 requests and moves the host sent (HEADERS and DATA frames) + 100 a second"} {
		if !strings.Contains(why, want) {
			t.Errorf("reason %q lacks %q", why, want)
		}
	}
}

func TestFrameGuardLetsCallsAndEarnedFramesThrough(t *testing.T) {
	t.Parallel()
	// What the host sends earns the bot its window updates and pings: 300 requests earn 2400.
	host := frames(t, func(fr *http2.Framer) {
		for i := range 300 {
			_ = fr.WriteData(uint32(2*i+1), false, []byte("request"))
		}
	})
	bot := frames(t, func(fr *http2.Framer) {
		_ = fr.WriteSettings()
		for i := range ControlBurst + ControlPerCall*300 - 1 {
			_ = fr.WriteWindowUpdate(0, 100)
			// Answers and their trailers are calls, not control frames.
			_ = fr.WriteData(uint32(2*i+1), false, []byte("answer"))
			_ = fr.WriteHeaders(http2.HeadersFrameParam{StreamID: uint32(2*i + 1), BlockFragment: []byte{0x88}, EndHeaders: true, EndStream: true})
		}
	})
	c := &bufConn{piece: 5}
	c.r.Reset(bot)
	g := &frameGuard{Conn: c, start: time.Now(), out: handshake.HTTP2Splitter{Skip: http2Preface}}
	if _, err := g.Write(append([]byte(http2.ClientPreface), host...)); err != nil {
		t.Fatal(err)
	}
	if g.calls != 300 {
		t.Fatalf("counted %d host calls, want 300", g.calls)
	}
	why, err := readAll(g)
	if err == errFlood || why != "" {
		t.Fatalf("an earned stream of frames was charged: %v: %s", err, why)
	}
	if g.control != ControlBurst+ControlPerCall*300 {
		t.Errorf("counted %d control frames, want %d", g.control, ControlBurst+ControlPerCall*300)
	}
}
