package queue

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// MaxPayload is the largest message the embedded server takes: a result carries its replay
// (compressed), which for a long match is far above NATS's default of 1 MiB.
const MaxPayload = 8 << 20

// Embedded is a nats-server with JetStream running inside this process.
type Embedded struct {
	ns    *server.Server
	token string
	ca    string
}

// StartEmbedded starts a server keeping JetStream's files in dir. listen is "" for no
// listening port (the coordinator's own process reaches it in-process), or host:port (port 0
// picks a free one) for workers elsewhere: then clients need its token and talk TLS only,
// with a self-signed certificate made once in dir (CAFile) unless WithTLS gives one.
func StartEmbedded(dir, listen string, options ...Option) (*Embedded, error) {
	var o embeddedOptions
	for _, opt := range options {
		opt(&o)
	}
	opts := &server.Options{
		ServerName: "arena",
		JetStream:  true,
		StoreDir:   dir,
		DontListen: listen == "",
		MaxPayload: MaxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	var token, ca string
	if listen != "" {
		// A listening server holds every submission's files and takes results: only clients
		// with its token (kept beside its files, so a restart keeps it) get in.
		var err error
		if token, err = loadToken(dir); err != nil {
			return nil, err
		}
		opts.Authorization = token
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
		// The token crosses the network: never in clear.
		if opts.TLSConfig, ca, err = serverTLS(dir, host, o); err != nil {
			return nil, err
		}
		opts.TLSTimeout = 5
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
	return &Embedded{ns: ns, token: token, ca: ca}, nil
}

// CAFile is the certificate a worker trusts the listening server by (--nats-ca): the
// self-signed one; "" when the server does not listen or WithTLS gave its certificate.
func (e *Embedded) CAFile() string { return e.ca }

// URL is where workers connect, token included ("" when the server does not listen).
func (e *Embedded) URL() string {
	addr, ok := e.ns.Addr().(*net.TCPAddr)
	if !ok {
		return ""
	}
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host, _ = os.Hostname() // listening everywhere: name this machine
	}
	u := url.URL{Scheme: "tls", User: url.User(e.token), Host: net.JoinHostPort(host, strconv.Itoa(addr.Port))}
	return u.String()
}

// Connect opens a connection in-process (no socket).
func (e *Embedded) Connect(name string) (*nats.Conn, error) {
	return nats.Connect("", nats.InProcessServer(e.ns), nats.Name(name), nats.MaxReconnects(-1), nats.Token(e.token))
}

// loadToken reads the server's token from dir, making one the first time.
func loadToken(dir string) (string, error) {
	p := filepath.Join(dir, "token")
	if b, err := os.ReadFile(p); err == nil && len(b) >= 32 {
		return string(b), nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	tok := hex.EncodeToString(raw[:])
	if err := os.WriteFile(p, []byte(tok), 0o600); err != nil {
		return "", fmt.Errorf("NATS token in %s: %w", dir, err)
	}
	return tok, nil
}

// Shutdown stops the server and waits for it.
func (e *Embedded) Shutdown() {
	e.ns.Shutdown()
	e.ns.WaitForShutdown()
}

// Client says how a coordinator or worker reaches a NATS server or cluster.
type Client struct {
	URL  string // comma-separated for several servers
	Name string
	// CA is a PEM file of the certificates to trust for TLS ("": the system's roots).
	CA string
	// Warn is told why connecting failed, once for each new reason (nil: silent).
	Warn func(string)
}

// Dial connects, retrying while the server is down: a worker may start before its
// coordinator, and outlives its restarts.
func Dial(c Client) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(c.Name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true), nats.Timeout(5 * time.Second)}
	if c.CA != "" {
		if _, err := os.Stat(c.CA); err != nil {
			return nil, fmt.Errorf("--nats-ca %s: %w: copy the coordinator's certificate (the file its start names) here", c.CA, err)
		}
		opts = append(opts, nats.RootCAs(c.CA))
	}
	if c.Warn != nil {
		var mu sync.Mutex
		last := ""
		opts = append(opts, nats.ReconnectErrHandler(func(_ *nats.Conn, err error) {
			mu.Lock()
			defer mu.Unlock()
			if err != nil && err.Error() != last {
				last = err.Error()
				c.Warn(fmt.Sprintf("cannot reach NATS at %s yet (retrying): %v", Redact(c.URL), err))
			}
		}))
	}
	nc, err := nats.Connect(c.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("--nats %s: %w (a URL looks like nats://host:4222, or tls://token@host:4222 for an arena's own server)", Redact(c.URL), err)
	}
	return nc, nil
}

// Redact hides the token or password of each URL in s (comma-separated), for logs and
// messages; what does not parse as a URL is hidden whole.
func Redact(s string) string {
	parts := strings.Split(s, ",")
	for i, p := range parts {
		u, err := url.Parse(strings.TrimSpace(p))
		switch {
		case err != nil:
			parts[i] = "(a URL that does not parse)"
		case u.User != nil:
			u.User = url.User("xxxxx")
			parts[i] = u.String()
		}
	}
	return strings.Join(parts, ",")
}
