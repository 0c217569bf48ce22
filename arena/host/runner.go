package host

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/botarena/arena/sandbox"
	"github.com/botarena/arena/sdk/handshake"
)

// Errors a launch can fail with; each is wrapped with the bot's name and what to do.
var (
	ErrNoHandshake  = errors.New("bot never printed a handshake")
	ErrBadHandshake = errors.New("bot printed a malformed handshake")
	ErrVersion      = errors.New("bot speaks another protocol version")
	ErrExited       = errors.New("exited before it was ready to play")
	errSocketGone   = errors.New("is not there")
)

// drainCap bounds the wait for an ended bot's output (see drained).
const drainCap = 30 * time.Second

// maxHandshake bounds the first stdout line; a real one is under 1 KiB.
const maxHandshake = 8 << 10

// procRunner implements go-plugin's runner.Runner on top of a sandboxed process.
type procRunner struct {
	name      string
	spec      sandbox.Spec
	socketDir string
	paths     workPaths
	log       *Log
	files     string // see Command.Files

	proc      *sandbox.Process
	handshake string
	// copies tracks the goroutines moving stdout and stderr into the log.
	copies sync.WaitGroup
	// stderr is the copier of stderr (see Bot.FlushLog).
	stderr *logCopy
	// spawned and handshook time the launch (see Startup).
	spawned, handshook time.Time
	// allow is the launch's allowance (Options.StartTimeout), held by watch.
	allow   time.Duration
	watch   *launchWatch
	exited  chan struct{}
	waitErr error
}

func (r *procRunner) Start(ctx context.Context) error {
	p, err := sandbox.Start(r.spec)
	if err != nil {
		return fmt.Errorf("bot %s: %w", r.name, err)
	}
	r.proc = p
	r.spawned = time.Now()
	// lined is set once the first line is in the host's hands: from then on (and while its
	// bytes wait unread in the pipe) the launch waits on the host, not on the bot.
	var lined atomic.Bool
	r.watch = watchLaunch(p, r.allow, func() bool { return lined.Load() || p.StdoutUnread() > 0 })
	r.exited = make(chan struct{})
	r.copies.Add(2)
	// Stderr goes raw into the log; go-plugin never sees it.
	r.stderr = &logCopy{src: p.Stderr(), dst: r.log, unread: p.StderrUnread, wake: p.StderrDeadline}
	go func() {
		defer r.copies.Done()
		r.stderr.run()
	}()
	lineCh := make(chan string, 1)
	errCh := make(chan error, 1)
	go func() {
		defer r.copies.Done()
		br := bufio.NewReaderSize(lineSeen{p.Stdout(), &lined}, maxHandshake)
		line, err := br.ReadSlice('\n')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				errCh <- fmt.Errorf("%w: first line of stdout is longer than %d bytes", ErrBadHandshake, maxHandshake)
			} else {
				errCh <- err
			}
			_, _ = io.Copy(r.log, br)
			return
		}
		lineCh <- string(line)
		// Anything after the handshake is not protocol: keep it in the log.
		_, _ = io.Copy(r.log, br)
	}()
	go func() {
		r.waitErr = p.Wait()
		close(r.exited)
	}()
	var line string
	select {
	case line = <-lineCh:
		r.handshook = time.Now()
	case <-r.watch.tripped:
		select {
		case line = <-lineCh: // it came as the watch stopped the launch: the line wins
			r.handshook = time.Now()
		default:
			return r.fail(r.watch.tripErr())
		}
	case err := <-errCh:
		// Its output closed: most often it exited. Give the exit time to be reaped, so the
		// report says how it ended (200 ms was too short on a loaded machine: "still running").
		<-r.waitOrTimeout(2 * time.Second)
		if terr := r.watch.tripErr(); terr != nil {
			return r.fail(terr)
		}
		if errors.Is(err, ErrBadHandshake) {
			return r.fail(err)
		}
		return r.fail(fmt.Errorf("%w (%s)", ErrExited, r.exitText()))
	case <-ctx.Done():
		return r.fail(fmt.Errorf("%w: the machine stalled its start for %v; charged to no bot", ErrStalled, time.Since(r.spawned).Round(time.Millisecond)))
	}
	hs, err := r.check(strings.TrimRight(line, "\r\n"))
	if err != nil {
		// A bot that printed its handshake and then died (the stdio bridge whose program
		// failed removes its socket as it exits) is reported by how it ended.
		if errors.Is(err, errSocketGone) {
			<-r.waitOrTimeout(2 * time.Second)
		}
		if r.hasExited() {
			return r.fail(fmt.Errorf("%w (%s)", ErrExited, r.exitText()))
		}
		return r.fail(err)
	}
	r.handshake = hs + "\n"
	return nil
}

func (r *procRunner) waitOrTimeout(d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		select {
		case <-r.exited:
		case <-time.After(d):
		}
		close(ch)
	}()
	return ch
}

func (r *procRunner) hasExited() bool {
	select {
	case <-r.exited:
		return true
	default:
		return false
	}
}

func (r *procRunner) exitText() string {
	select {
	case <-r.exited:
		return r.proc.Reason().String()
	default:
		return "still running"
	}
}

// fail kills the process and decorates err with the bot's last stderr lines.
func (r *procRunner) fail(err error) error {
	r.watch.done()
	_ = r.proc.Kill()
	<-r.exited
	r.drained(500 * time.Millisecond)
	msg := fmt.Sprintf("bot %s: %v%s", r.name, err, causeText(r.log, r.files))
	return &StartError{Bot: r.name, Err: err, Msg: msg, Pid: r.proc.Pid()}
}

// StartError is a failed launch; Error() names the bot and shows its last stderr lines.
type StartError struct {
	Bot string
	// Pid of the process that failed (already killed).
	Pid int
	Err error
	Msg string
}

func (e *StartError) Error() string { return e.Msg }
func (e *StartError) Unwrap() error { return e.Err }

// check validates a go-plugin handshake line strictly: core|app|unix|<socket in our dir>|grpc|cert.
func (r *procRunner) check(line string) (string, error) {
	show := line
	if len(show) > 120 {
		show = show[:120] + "..."
	}
	parts := strings.Split(line, "|")
	if len(parts) != 6 {
		return "", fmt.Errorf("%w: %q (want 1|%d|unix|<socket>|grpc|<cert>; is this a bot built with the arena SDK?)",
			ErrBadHandshake, show, handshake.ProtocolVersion)
	}
	if parts[0] != "1" {
		return "", fmt.Errorf("%w: go-plugin core protocol %q, want 1", ErrBadHandshake, parts[0])
	}
	if v, err := strconv.Atoi(parts[1]); err != nil || v != handshake.ProtocolVersion {
		return "", fmt.Errorf("%w: the bot speaks arena protocol %q, this host speaks %d; rebuild the bot with a matching SDK",
			ErrVersion, parts[1], handshake.ProtocolVersion)
	}
	if parts[2] != "unix" {
		return "", fmt.Errorf("%w: network %q, want unix", ErrBadHandshake, parts[2])
	}
	sock, ok := r.paths.toHost(parts[3])
	if !ok || filepath.Dir(sock) != filepath.Clean(r.socketDir) {
		return "", fmt.Errorf("%w: socket %q is outside the bot's own directory %s", ErrBadHandshake, parts[3], r.paths.toInside(r.socketDir))
	}
	if err := r.checkSocket(sock); err != nil {
		return "", fmt.Errorf("%w: %q %w", ErrBadHandshake, parts[3], err)
	}
	parts[3] = sock
	if parts[4] != "grpc" {
		return "", fmt.Errorf("%w: protocol %q, want grpc", ErrBadHandshake, parts[4])
	}
	der, err := base64.RawStdEncoding.DecodeString(parts[5])
	if err == nil {
		_, err = x509.ParseCertificate(der)
	}
	if err != nil {
		return "", fmt.Errorf("%w: server certificate does not parse: %v", ErrBadHandshake, err)
	}
	return strings.Join(parts, "|"), nil
}

// checkSocket makes sure the path the host (root) will connect to is the bot's own socket: not
// a symlink to another socket, not anything else, and made by the bot's uid.
func (r *procRunner) checkSocket(path string) error {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return fmt.Errorf("%w (%v)", errSocketGone, err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		return errors.New("is not a unix socket (a symlink or another kind of file)")
	}
	if uid := r.proc.HostUID(); uid >= 0 && int(st.Uid) != uid {
		return fmt.Errorf("belongs to uid %d, not the bot's uid %d", st.Uid, uid)
	}
	return nil
}

func (r *procRunner) Diagnose(context.Context) string {
	return strings.Join(r.log.Tail(8), "\n")
}

// Stdout gives go-plugin only the checked handshake line.
func (r *procRunner) Stdout() io.ReadCloser { return io.NopCloser(strings.NewReader(r.handshake)) }

// Stderr gives go-plugin nothing: the host keeps the raw stream.
func (r *procRunner) Stderr() io.ReadCloser { return io.NopCloser(strings.NewReader("")) }

func (r *procRunner) Name() string { return r.name }

func (r *procRunner) Wait(context.Context) error {
	<-r.exited
	return r.waitErr
}

func (r *procRunner) Kill(context.Context) error {
	err := r.proc.Kill()
	<-r.exited
	return err
}

func (r *procRunner) ID() string {
	if r.proc == nil {
		return ""
	}
	return strconv.Itoa(r.proc.Pid())
}

func (r *procRunner) PluginToHost(n, a string) (string, string, error) { return n, a, nil }
func (r *procRunner) HostToPlugin(n, a string) (string, string, error) { return n, a, nil }

// drained waits until everything the ended process wrote is in the log: until its output
// pipes reach their end, or, should something still hold them open (an escaped process where
// the sandbox is degraded), until they hold nothing unread and d has passed, and never past
// drainCap. A bound of d alone lost a crashing bot's last stderr line beside four busy loops
// (CI26): the host's copier had not run in its 500 ms.
func (r *procRunner) drained(d time.Duration) {
	done := make(chan struct{})
	go func() { r.copies.Wait(); close(done) }()
	grace, limit := time.After(d), time.After(drainCap)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for late := false; ; {
		select {
		case <-done:
			return
		case <-limit:
			return
		case <-grace:
			late = true
		case <-tick.C:
		}
		if late && r.proc.StdoutUnread() == 0 && r.proc.StderrUnread() == 0 {
			return
		}
	}
}

// lineSeen passes reads through and sets seen at the first newline, as soon as the read that
// brought it returns (before the reader has even looked at it).
type lineSeen struct {
	r    io.Reader
	seen *atomic.Bool
}

func (l lineSeen) Read(b []byte) (int, error) {
	n, err := l.r.Read(b)
	if n > 0 && bytes.IndexByte(b[:n], '\n') >= 0 {
		l.seen.Store(true)
	}
	return n, err
}
