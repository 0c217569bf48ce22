package host

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/hashicorp/go-plugin"
	"golang.org/x/net/http2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/botarena/arena/sdk/handshake"
)

// Bounds on the HTTP/2 control frames a bot sends on its gRPC connection. grpc-go answers every
// PING and takes every SETTINGS and WINDOW_UPDATE a server sends, without limit: a bot that
// flooded its connection with PINGs made the host's CPU per match 11-22x and its match 21-47x
// slower, and won with no fault. A bot earns control frames by what the host sends it (an
// honest one answers a request with at most a window update or two and a flow-control ping)
// and by the connection's age (keepalives); beyond that it is charged a fault and stopped.
const (
	// ControlBurst is what a bot may send before it has earned any: the connection's set-up
	// takes a handful.
	ControlBurst = 1024
	// ControlPerCall is what each call frame the host sends (HEADERS, DATA: a request or a
	// move) earns: over twice an honest server's worst (grpc-go and grpcio answer a request with
	// up to two window updates and a flow-control ping). The host's own control frames earn
	// nothing: each PING of a flood gets an ACK.
	ControlPerCall = 8
	// ControlPerSecond is what the connection's age earns (keepalive pings are minutes apart).
	ControlPerSecond = 100
)

// KindFlood is how a bot stopped for flooding its connection ended (a fault: see
// sandbox.ExitReason.Fault).
const KindFlood = "connection flood"

// errFlood ends the host's reading of a connection that went over the bounds.
var errFlood = errors.New("the bot flooded its connection with HTTP/2 control frames")

// http2Preface is what the client (the host) writes before its first frame.
const http2Preface = len(http2.ClientPreface)

// guardFrames is the dial option that counts a bot's frames: the TLS credentials of the
// connection, wrapped so that gRPC reads through a frameGuard. go-plugin puts its own
// credentials first; a later option wins. The TLS config is read at the handshake, since
// go-plugin's AutoMTLS makes it only when the bot starts; flood is called once, from the
// connection's reader, when the bot goes over.
func guardFrames(cfg *plugin.ClientConfig, flood func(why string)) grpc.DialOption {
	return grpc.WithTransportCredentials(&guardCreds{cfg: cfg, flood: flood})
}

type guardCreds struct {
	cfg   *plugin.ClientConfig
	flood func(why string)
}

func (g *guardCreds) inner() credentials.TransportCredentials {
	if g.cfg.TLSConfig == nil {
		return insecure.NewCredentials()
	}
	return credentials.NewTLS(g.cfg.TLSConfig)
}

func (g *guardCreds) ClientHandshake(ctx context.Context, authority string, raw net.Conn) (net.Conn, credentials.AuthInfo, error) {
	c, info, err := g.inner().ClientHandshake(ctx, authority, raw)
	if err != nil {
		return nil, nil, err
	}
	return &frameGuard{Conn: c, flood: g.flood, start: time.Now(), out: handshake.HTTP2Splitter{Skip: http2Preface}}, info, nil
}

func (g *guardCreds) ServerHandshake(net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return nil, nil, errors.New("host: the arena host never serves a bot's connection")
}

func (g *guardCreds) Info() credentials.ProtocolInfo { return g.inner().Info() }

func (g *guardCreds) Clone() credentials.TransportCredentials { c := *g; return &c }

// OverrideServerName is deprecated in grpc; the host names no server.
func (g *guardCreds) OverrideServerName(string) error { return nil }

// frameGuard counts the frames of one connection in plaintext (inside TLS): the bot's as gRPC
// reads them, the host's as gRPC writes them.
type frameGuard struct {
	net.Conn
	flood func(why string)
	start time.Time
	// in is only touched by gRPC's one reader; out and calls by its writers, under mu.
	in      handshake.HTTP2Splitter
	control int64
	last    http2.FrameType
	tripped bool
	mu      sync.Mutex
	out     handshake.HTTP2Splitter
	calls   int64
}

func (g *frameGuard) Read(p []byte) (int, error) {
	if g.tripped {
		return 0, errFlood
	}
	n, err := g.Conn.Read(p)
	g.in.Feed(p[:n], g.inFrame)
	if g.tripped {
		return 0, errFlood
	}
	return n, err
}

func (g *frameGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.out.Feed(p, g.outFrame)
	g.mu.Unlock()
	return g.Conn.Write(p)
}

// outFrame counts the host's call frames (under mu).
func (g *frameGuard) outFrame(h handshake.HTTP2Header) {
	if !control(h) {
		g.calls++
	}
}

// inFrame counts one frame of the bot's and trips the guard when it is one too many.
func (g *frameGuard) inFrame(h handshake.HTTP2Header) {
	if !control(h) || g.tripped {
		return
	}
	g.control++
	g.last = h.Type
	g.mu.Lock()
	calls := g.calls
	g.mu.Unlock()
	earned := ControlBurst + ControlPerCall*calls
	if g.control <= earned {
		return
	}
	age := time.Since(g.start)
	if g.control <= earned+int64(age.Seconds()*ControlPerSecond) {
		return
	}
	g.tripped = true
	g.flood(fmt.Sprintf("sent %d HTTP/2 control frames (the last a %s) in %v on its connection to the host, over the limit of %d + %d for each of the %d requests and moves the host sent (HEADERS and DATA frames) + %d a second",
		g.control, g.last, age.Round(time.Millisecond), ControlBurst, ControlPerCall, calls, ControlPerSecond))
}

// control reports whether a frame carries no call: everything but HEADERS, CONTINUATION and
// DATA with a payload or the end of a stream (grpc-go ends a stream with HEADERS).
func control(h handshake.HTTP2Header) bool {
	switch h.Type {
	case http2.FrameHeaders, http2.FrameContinuation:
		return false
	case http2.FrameData:
		return h.Length == 0 && !h.Flags.Has(http2.FlagDataEndStream)
	}
	return true
}

// flooded stops a bot whose connection went over the bounds: the reason is recorded before
// the reader fails its calls, so the fault names the flood, not the broken connection.
func (b *Bot) flooded(why string) {
	b.markDead(KindFlood + ": " + why)
	go b.KillFor(KindFlood, why)
}
