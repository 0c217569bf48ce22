package queue

import (
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// MaxPayload is the largest message the embedded server takes: a result carries its replay
// (compressed), which for a long match is far above NATS's default of 1 MiB.
const MaxPayload = 8 << 20

// Embedded is a nats-server with JetStream running inside this process.
type Embedded struct {
	ns *server.Server
}

// StartEmbedded starts a server keeping JetStream's files in dir. listen is "" for no
// listening port (the coordinator's own process reaches it in-process), or host:port (port 0
// picks a free one) for workers elsewhere.
func StartEmbedded(dir, listen string) (*Embedded, error) {
	opts := &server.Options{
		ServerName: "arena",
		JetStream:  true,
		StoreDir:   dir,
		DontListen: listen == "",
		MaxPayload: MaxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if listen != "" {
		host, port, err := net.SplitHostPort(listen)
		if err != nil {
			return nil, fmt.Errorf("--nats-listen %q: %v: give host:port, e.g. 127.0.0.1:4222 or 0.0.0.0:0", listen, err)
		}
		p, err := strconv.Atoi(port)
		if err != nil || p < 0 || p > 65535 {
			return nil, fmt.Errorf("--nats-listen %q: port %q is not a number from 0 to 65535", listen, port)
		}
		if p == 0 {
			p = server.RANDOM_PORT
		}
		opts.Host, opts.Port = host, p
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server (files in %s): %w", dir, err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS server (files in %s) did not start within 30s; is another arena using that folder or address (%s)?", dir, listen)
	}
	return &Embedded{ns: ns}, nil
}

// URL is where workers connect ("" when the server does not listen).
func (e *Embedded) URL() string {
	if e.ns.Addr() == nil {
		return ""
	}
	return e.ns.ClientURL()
}

// Connect opens a connection in-process (no socket).
func (e *Embedded) Connect(name string) (*nats.Conn, error) {
	return nats.Connect("", nats.InProcessServer(e.ns), nats.Name(name), nats.MaxReconnects(-1))
}

// Shutdown stops the server and waits for it.
func (e *Embedded) Shutdown() {
	e.ns.Shutdown()
	e.ns.WaitForShutdown()
}

// Dial connects to a NATS server or cluster at url (comma-separated for several), retrying
// while it is down: a worker may start before its coordinator, and outlives its restarts.
func Dial(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250*time.Millisecond),
		nats.RetryOnFailedConnect(true), nats.Timeout(5*time.Second))
	if err != nil {
		return nil, fmt.Errorf("--nats %s: %w (a URL looks like nats://host:4222)", url, err)
	}
	return nc, nil
}
