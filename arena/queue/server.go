package queue

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// MaxPayload is the largest message the embedded server takes: a result carries its replay
// (compressed), which for a long match is far above NATS's default of 1 MiB.
const MaxPayload = 8 << 20

// Embedded is a nats-server with JetStream running inside this process.
type Embedded struct {
	ns   *server.Server
	ca   string
	dir  string
	base *server.Options
	// coord is the coordinator's own key (made at each start, kept nowhere): the one user
	// without limits, reached in-process only.
	coord nkeys.KeyPair
	reg   *Registry
	mu    sync.Mutex // one reload at a time
	seen  string     // the registry file's state at the last reload
	stop  chan struct{}
	once  sync.Once
}

// StartEmbedded starts a server keeping JetStream's files in dir. listen is "" for no
// listening port (the coordinator's own process reaches it in-process), or host:port (port 0
// picks a free one) for workers elsewhere: then clients talk TLS only, with a self-signed
// certificate made once in dir (CAFile) unless WithTLS gives one. Every client has a user
// nkey: the coordinator's own (Connect), or a worker's from the registry in dir, allowed
// only what a worker does (WorkerPermissions); the server re-reads the registry when it
// changes, so a revoked or quarantined worker is cut off within a second.
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
	var ca string
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
		// Bot files and results cross the network: never in clear.
		if opts.TLSConfig, ca, err = serverTLS(dir, host, o); err != nil {
			return nil, err
		}
		opts.TLSTimeout = 5
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	// An older arena's token file was a master key: nothing reads it any more.
	_ = os.Remove(filepath.Join(dir, "token"))
	coord, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	e := &Embedded{ca: ca, dir: dir, base: opts, coord: coord, reg: OpenRegistry(dir), stop: make(chan struct{})}
	if opts.Nkeys, e.seen, err = e.users(); err != nil {
		return nil, err
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
	e.ns = ns
	if u := e.URL(); u != "" {
		_ = writeAtomic(filepath.Join(dir, "url"), []byte(u+"\n"), 0o644)
	}
	go e.watch()
	return e, nil
}

// users is the server's user list: the coordinator and every enabled worker, and the
// registry file's state it was read at.
func (e *Embedded) users() ([]*server.NkeyUser, string, error) {
	pub, _ := e.coord.PublicKey()
	us := []*server.NkeyUser{{Nkey: pub}}
	state := e.registryState()
	cs, err := e.reg.List()
	if err != nil {
		return nil, "", err
	}
	for _, c := range cs {
		if c.Disabled == "" {
			us = append(us, &server.NkeyUser{Nkey: c.Key, Permissions: WorkerPermissions(c.Name)})
		}
	}
	return us, state, nil
}

// registryState changes whenever the registry file is written (it is replaced by a rename).
func (e *Embedded) registryState() string {
	st, err := os.Stat(e.reg.path())
	if err != nil {
		return ""
	}
	var ino uint64
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		ino = uint64(sys.Ino) // not the whole Stat_t: its access time moves at each read
	}
	return fmt.Sprintf("%d/%d/%d", st.Size(), st.ModTime().UnixNano(), ino)
}

// Reload makes the server's users those of the registry now: a client whose key is no
// longer there (revoked, quarantined) is disconnected.
func (e *Embedded) Reload() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	opts := e.base.Clone()
	us, state, err := e.users()
	if err != nil {
		return err
	}
	opts.Nkeys = us
	if err := e.ns.ReloadOptions(opts); err != nil {
		return fmt.Errorf("reloading the NATS server's workers: %w", err)
	}
	e.seen = state // only now: a failed reload is tried again at the next look
	return nil
}

// Quarantine disables a worker's credential (saying why) and cuts it off at once; the
// organiser lets it in again with arena worker enable.
func (e *Embedded) Quarantine(name, why string) error {
	if name == LocalWorker {
		return nil
	}
	if err := e.reg.Disable(name, why); err != nil {
		return err
	}
	return e.Reload()
}

// Registry is the list of workers this server lets in.
func (e *Embedded) Registry() *Registry { return e.reg }

// watch reloads the users whenever the registry file changes (arena worker add, revoke).
func (e *Embedded) watch() {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
		}
		e.mu.Lock()
		changed := e.registryState() != e.seen
		e.mu.Unlock()
		if changed {
			_ = e.Reload()
		}
	}
}

// CAFile is the certificate a worker trusts the listening server by (--nats-ca): the
// self-signed one; "" when the server does not listen or WithTLS gave its certificate.
func (e *Embedded) CAFile() string { return e.ca }

// URL is where workers connect ("" when the server does not listen); it holds no secret.
func (e *Embedded) URL() string {
	addr, ok := e.ns.Addr().(*net.TCPAddr)
	if !ok {
		return ""
	}
	host := addr.IP.String()
	if addr.IP.IsUnspecified() {
		host, _ = os.Hostname() // listening everywhere: name this machine
	}
	u := url.URL{Scheme: "tls", Host: net.JoinHostPort(host, strconv.Itoa(addr.Port))}
	return u.String()
}

// ServerURL is the URL the embedded server with its files in dir wrote at its last start
// ("" if it never listened).
func ServerURL(dir string) string {
	b, _ := os.ReadFile(filepath.Join(dir, "url"))
	return strings.TrimSpace(string(b))
}

// Connect opens the coordinator's connection in-process (no socket), with every right.
func (e *Embedded) Connect(name string) (*nats.Conn, error) {
	pub, _ := e.coord.PublicKey()
	return nats.Connect("", nats.InProcessServer(e.ns), nats.Name(name), nats.MaxReconnects(-1), nats.Nkey(pub, e.coord.Sign))
}

// ConnectWorker opens a connection in-process as a registered worker, with exactly the
// rights that worker has over the network (for tests).
func (e *Embedded) ConnectWorker(secret []byte) (*nats.Conn, error) {
	s, err := ParseSecret(secret)
	if err != nil {
		return nil, err
	}
	opts, err := workerOptions(s)
	if err != nil {
		return nil, err
	}
	opts = append(opts, nats.InProcessServer(e.ns), nats.Name("arena worker "+s.Worker))
	// A reload of the users (another worker added or quarantined) closes connections still in
	// their handshake ("io: read/write on closed pipe"); a network worker reconnects, this
	// first connection tries again. A refused credential is final.
	for try := 1; ; try++ {
		nc, err := nats.Connect("", opts...)
		if err == nil || try == 10 || errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked) {
			return nc, err
		}
		time.Sleep(time.Duration(try) * 50 * time.Millisecond)
	}
}

// Shutdown stops the server and waits for it.
func (e *Embedded) Shutdown() {
	e.once.Do(func() { close(e.stop) })
	e.ns.Shutdown()
	e.ns.WaitForShutdown()
}

// Client says how a coordinator or worker reaches a NATS server or cluster.
type Client struct {
	URL  string // comma-separated for several servers
	Name string
	// Secret is a worker's credentials file content (arena worker add makes it); nil for a
	// NATS server of the operator's own, reached as its URL says.
	Secret []byte
	// CA is a PEM file of the certificates to trust for TLS ("": the system's roots).
	CA string
	// Warn is told why connecting failed, once for each new reason (nil: silent).
	Warn func(string)
}

// Dial connects, retrying while the server is down: a worker may start before its
// coordinator, and outlives its restarts.
func Dial(c Client) (*nats.Conn, error) {
	// A refused credential is not final either: a worker added a moment ago is refused until
	// the server re-reads its list (within a second), and a quarantined one may be enabled
	// again. nats.go gives up after the same refusal twice, which left a worker started
	// just after arena worker add connected to nothing, forever (seen under load in CI).
	// The wait between tries grows to 5 s, so a refused worker costs its server little.
	opts := []nats.Option{nats.Name(c.Name), nats.MaxReconnects(-1), nats.IgnoreAuthErrorAbort(),
		nats.CustomReconnectDelay(func(attempts int) time.Duration {
			return min(time.Duration(attempts)*250*time.Millisecond, 5*time.Second)
		}),
		nats.RetryOnFailedConnect(true), nats.Timeout(5 * time.Second)}
	if c.CA != "" {
		if _, err := os.Stat(c.CA); err != nil {
			return nil, fmt.Errorf("--nats-ca %s: %w: copy the coordinator's certificate (the file its start names) here", c.CA, err)
		}
		opts = append(opts, nats.RootCAs(c.CA))
	}
	if c.Secret != nil {
		s, err := ParseSecret(c.Secret)
		if err != nil {
			return nil, err
		}
		wo, err := workerOptions(s)
		if err != nil {
			return nil, err
		}
		opts = append(opts, wo...)
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
		return nil, fmt.Errorf("--nats %s: %w (a URL looks like nats://host:4222, or tls://host:4222 with --credentials for an arena's own server)", Redact(c.URL), err)
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
