package budget

import (
	"net"
	"net/netip"
	"sync"
)

// Listener bounds a listener's open connections: at most perClient from one address (more
// are closed as soon as they are accepted) and at most total in all (more wait in the
// kernel's backlog until one closes). Exempt addresses (a trusted reverse proxy, which carries
// every client) count only toward total.
type Listener struct {
	net.Listener
	perClient *PerKey
	total     chan struct{}
	exempt    func(netip.Addr) bool
}

// NewListener wraps ln; exempt may be nil.
func NewListener(ln net.Listener, perClient, total int, exempt func(netip.Addr) bool) *Listener {
	return &Listener{Listener: ln, perClient: NewPerKey(perClient), total: make(chan struct{}, max(total, 1)), exempt: exempt}
}

// Accept returns the next connection within the bounds.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		l.total <- struct{}{}
		c, err := l.Listener.Accept()
		if err != nil {
			<-l.total
			return nil, err
		}
		key := ""
		if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
			addr := ap.Addr().Unmap()
			if l.exempt == nil || !l.exempt(addr) {
				key = addr.String()
			}
		}
		release := func() {}
		if key != "" {
			var ok bool
			if release, ok = l.perClient.Take(key); !ok {
				// Closed before a byte is read: the client's own connections are what it waits on.
				_ = c.Close()
				<-l.total
				continue
			}
		}
		return &conn{Conn: c, release: func() { release(); <-l.total }}, nil
	}
}

// Held is how many connections addr holds open now.
func (l *Listener) Held(addr string) int { return l.perClient.Held(addr) }

type conn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
