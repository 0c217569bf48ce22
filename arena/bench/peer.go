package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/botarena/arena/arena/botspec"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/sandbox"
)

// The peer is the bench's anchor: what a plain stdio referee (Halite, CodinGame) pays for a
// move. A minimal bot reads one line and answers one line; it runs in the same sandbox as the
// arena's bots, and the host drives it over plain pipes with blocking reads and writes, one
// line out and one line back per move. Every move and match figure is printed as a multiple
// of the peer's figure measured in the same run: the pipe floor moves with the machine's load
// (7 to 47 us between runs on one machine), a ratio to a peer measured beside it does not.
const (
	// GoPeer is the Go peer (a package), PythonPeer the Python one (a file), both relative to
	// the repository root.
	GoPeer     = "bots/bench/peer"
	PythonPeer = "bots/bench/peer/python/peer.py"
)

// peerLine is what the host sends per move: a referee's state line, as long as a short one.
var peerLine = []byte("step 1234 last R P score 617 602 dynamite 42 37\n")

// Peer is one running peer process and the host's ends of its two pipes.
type Peer struct {
	proc *sandbox.Process
	work string
	// in is the pipe the host writes requests to, out the one it reads answers from: plain
	// blocking descriptors, never Go's netpoller (a referee written in C or Python blocks).
	in, out int
	buf     [64]byte
	stderr  tail
}

// tail keeps the last bytes a peer wrote to stderr, for an error message.
type tail struct {
	mu sync.Mutex
	b  []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 2048 {
		t.b = t.b[len(t.b)-2048:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(bytes.TrimSpace(t.b))
}

// peerSpec is a peer program to run: its command inside the sandbox (the two pipes' paths
// are appended) and what it needs to see.
type peerSpec struct {
	name     string
	argv     []string
	readOnly []string
	mounts   []sandbox.Mount
	dir      string
}

// goPeerSpec builds the Go peer as the arena builds a Go bot and shows it the same way.
func (l *launcher) goPeerSpec() (peerSpec, error) {
	c, err := l.res.Command(filepath.Join(l.root, GoPeer))
	if err != nil {
		return peerSpec{}, err
	}
	return peerSpec{name: GoPeer, argv: append([]string{c.Path}, c.Args...), readOnly: c.ReadOnly, mounts: c.Mounts, dir: c.Dir}, nil
}

// pythonPeerSpec runs the Python peer with the interpreter Python bots get.
func pythonPeerSpec(root, python string) (peerSpec, error) {
	rt, err := sandbox.PythonRuntime(python)
	if err != nil {
		return peerSpec{}, err
	}
	dir := filepath.Join(root, filepath.Dir(PythonPeer))
	return peerSpec{name: PythonPeer, argv: []string{rt.Exe, filepath.Join(botspec.BotDir, filepath.Base(PythonPeer))},
		readOnly: rt.ReadOnly, mounts: []sandbox.Mount{{Host: dir, At: botspec.BotDir}}, dir: botspec.BotDir}, nil
}

// startPeer starts a peer in the bots' sandbox (unconfined: without its layers) and opens its
// pipes. The sandbox gives a bot no stdin, so the pipes are two named pipes the host makes in
// the peer's work dir once the sandbox is up; the peer waits for them.
func startPeer(ps peerSpec, unconfined bool) (*Peer, error) {
	work, err := os.MkdirTemp("", "arena-peer-")
	if err != nil {
		return nil, err
	}
	spec := sandbox.Spec{Name: ps.name, Path: ps.argv[0], Dir: ps.dir, ReadOnly: ps.readOnly, Mounts: ps.mounts,
		WorkDir: work, WorkAt: host.WorkInside, Unconfined: unconfined}
	inside := sandbox.WorkPathInside(spec)
	spec.Args = append(append([]string{}, ps.argv...), filepath.Join(inside, "in"), filepath.Join(inside, "out"))
	spec.Env = sandbox.Env(host.EnvAllow, "HOME="+inside, "TMPDIR="+inside, "PATH=/usr/local/bin:/usr/bin:/bin")
	proc, err := sandbox.Start(spec)
	if err != nil {
		_ = os.RemoveAll(work)
		return nil, err
	}
	p := &Peer{proc: proc, work: work, in: -1, out: -1}
	go func() { _, _ = io.Copy(io.Discard, proc.Stdout()) }()
	go func() { _, _ = io.Copy(&p.stderr, proc.Stderr()) }()
	if err := p.open(); err != nil {
		p.Close()
		if s := p.stderr.String(); s != "" {
			err = fmt.Errorf("%w: %s", err, firstLine(s))
		}
		return nil, fmt.Errorf("peer %s: %w", ps.name, err)
	}
	return p, nil
}

// peerOpenWait bounds how long the peer may take to open its pipes (an interpreter's start).
const peerOpenWait = 20 * time.Second

// open makes the pipes (out first: the peer looks for in, then opens out) and opens the host's
// ends: in read-write, so the open does not wait for the peer; out read-only, which waits
// until the peer opens it and later reads EOF when the peer is gone.
func (p *Peer) open() error {
	inPath, outPath := filepath.Join(p.work, "in"), filepath.Join(p.work, "out")
	for _, f := range []string{outPath, inPath} {
		if err := unix.Mkfifo(f, 0o666); err != nil {
			return fmt.Errorf("make the pipe %s: %w", f, err)
		}
		// The peer runs as a uid of its own; the umask must not take its access away.
		if err := os.Chmod(f, 0o666); err != nil {
			return err
		}
	}
	var err error
	if p.in, err = unix.Open(inPath, unix.O_RDWR|unix.O_CLOEXEC, 0); err != nil {
		return err
	}
	opened := make(chan error, 1)
	go func() {
		fd, err := unix.Open(outPath, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		p.out = fd
		opened <- err
	}()
	select {
	case err := <-opened:
		return err
	case <-p.proc.Done():
	case <-time.After(peerOpenWait):
	}
	// Unblock the open with a writer of our own, then report.
	if w, err := unix.Open(outPath, unix.O_WRONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0); err == nil {
		<-opened
		_ = unix.Close(w)
	}
	return errors.New("the peer did not open its pipes")
}

// send writes one request line.
func (p *Peer) send() error {
	for {
		_, err := unix.Write(p.in, peerLine)
		if err != unix.EINTR {
			return err
		}
	}
}

// recv reads one answer line (the peer answers "R\n", so a read holds whole answers).
func (p *Peer) recv() error {
	for {
		n, err := unix.Read(p.out, p.buf[:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return err
		case n == 0:
			return fmt.Errorf("the peer is gone (%s): %s", p.proc.Reason(), firstLine(p.stderr.String()))
		case p.buf[n-1] == '\n':
			return nil
		}
	}
}

// Move sends one line and waits for the answer.
func (p *Peer) Move() error {
	if err := p.send(); err != nil {
		return err
	}
	return p.recv()
}

// CPU is the peer's CPU time so far: its cgroup's count where there is one (exact), else
// /proc's ticks of its tree.
func (p *Peer) CPU() time.Duration {
	if c, ok := p.proc.CPUTime(); ok {
		return c
	}
	return cpuTime(p.proc.Pid())
}

// Close stops the peer and removes its work dir.
func (p *Peer) Close() {
	for _, fd := range []int{p.in, p.out} {
		if fd >= 0 {
			_ = unix.Close(fd)
		}
	}
	_ = p.proc.Kill()
	_ = p.proc.Wait()
	_ = os.RemoveAll(p.work)
}

// peerFigures are one peer's figures: the anchors of the other figures.
type peerFigures struct {
	label           string // "Go peer", "Python peer"
	p50, p99        time.Duration
	hostCPU, botCPU time.Duration // per move
	match           time.Duration // p50 of a two-seat match of the run's rounds
	matchRound      time.Duration // match / rounds
	// pair stays running for the matches step, which plays peer matches beside its own (see
	// beside); Run closes it.
	pair [2]*Peer
}

// close stops the pair.
func (f *peerFigures) close() {
	if f != nil {
		for _, p := range f.pair {
			if p != nil {
				p.Close()
			}
		}
	}
}

// beside runs play between two peer matches of rounds and returns the peer's time per round
// taken there: on a loaded machine a match's time moves with the load from minute to minute,
// so a match figure is divided by the peer's taken in the same minute. Where the peer fails
// it falls back on the peer step's figure.
func (f *peerFigures) beside(rounds int, play func() error) (time.Duration, error) {
	d0, err0 := peerMatch(f.pair[0], f.pair[1], rounds)
	if err := play(); err != nil {
		return 0, err
	}
	d1, err1 := peerMatch(f.pair[0], f.pair[1], rounds)
	if err0 != nil || err1 != nil {
		return f.matchRound, nil
	}
	return (d0 + d1) / time.Duration(2*rounds), nil
}

// peerMoves times n moves to one peer after a warm-up, with the CPU both sides spent.
func peerMoves(p *Peer, n int) (s Sample, hostCPU, botCPU time.Duration, err error) {
	for range n/10 + 5 {
		if err := p.Move(); err != nil {
			return nil, 0, 0, err
		}
	}
	s = make(Sample, 0, n)
	h0, b0 := selfCPU(), p.CPU()
	for range n {
		t0 := time.Now()
		if err := p.Move(); err != nil {
			return nil, 0, 0, err
		}
		s = append(s, time.Since(t0))
	}
	moves := time.Duration(n)
	return s, (selfCPU() - h0) / moves, (p.CPU() - b0) / moves, nil
}

// peerMatch plays a match of rounds on two peers as a referee does: each round the line goes
// to both, then both answers are read.
func peerMatch(a, b *Peer, rounds int) (time.Duration, error) {
	t0 := time.Now()
	for range rounds {
		if err := a.send(); err != nil {
			return 0, err
		}
		if err := b.send(); err != nil {
			return 0, err
		}
		if err := a.recv(); err != nil {
			return 0, err
		}
		if err := b.recv(); err != nil {
			return 0, err
		}
	}
	return time.Since(t0), nil
}

// measurePeer takes every figure of one peer: moves on one process, matches on two.
func (r *runner) measurePeer(ps peerSpec, label string, moves, matches int) (*peerFigures, error) {
	f := &peerFigures{label: label}
	ok := false
	defer func() {
		if !ok {
			f.close()
		}
	}()
	a, err := startPeer(ps, false)
	if err != nil {
		return nil, err
	}
	f.pair[0] = a
	s, hc, bc, err := peerMoves(a, moves)
	if err != nil {
		return nil, fmt.Errorf("peer %s: %w", ps.name, err)
	}
	b, err := startPeer(ps, false)
	if err != nil {
		return nil, err
	}
	f.pair[1] = b
	if _, err := peerMatch(a, b, min(r.sz.rounds, 100)); err != nil { // warm-up
		return nil, fmt.Errorf("peer %s: %w", ps.name, err)
	}
	var ms Sample
	for range matches {
		d, err := peerMatch(a, b, r.sz.rounds)
		if err != nil {
			return nil, fmt.Errorf("peer %s: %w", ps.name, err)
		}
		ms = append(ms, d)
	}
	f.p50, f.p99, f.hostCPU, f.botCPU, f.match = s.P50(), s.P99(), hc, bc, ms.P50()
	f.matchRound = f.match / time.Duration(r.sz.rounds)
	ok = true
	return f, nil
}

// peer measures both peers; a peer that cannot run is reported missing, with every ratio to it.
func (r *runner) peer(context.Context) error {
	moves, matches := 10*r.sz.goMoves, max(3, r.sz.goMatches)
	gs, err := r.l.goPeerSpec()
	if err == nil {
		r.goPeer, err = r.measurePeer(gs, "Go peer", moves, matches)
	}
	r.peerFigures("Go peer", GoPeer, r.goPeer, err)
	ps, err := pythonPeerSpec(r.cfg.Root, r.python())
	if err == nil {
		r.pyPeer, err = r.measurePeer(ps, "Python peer", moves, matches)
	}
	r.peerFigures("Python peer", PythonPeer, r.pyPeer, err)
	if r.goPeer != nil {
		r.rep.PeerGo = r.goPeer.p50
	}
	if r.pyPeer != nil {
		r.rep.PeerPython = r.pyPeer.p50
	}
	return nil
}

func (r *runner) peerFigures(label, rel string, f *peerFigures, err error) {
	names := []string{" p50", " p99", " CPU per move, host", " CPU per move, bot", fmt.Sprintf(" dynamite %d rounds", r.sz.rounds)}
	if err != nil {
		for _, n := range names {
			r.missing("peer", label+n, firstLine(err.Error()))
		}
		return
	}
	r.dur("peer", label+names[0], f.p50, "a line to "+rel+" and its answer back, plain blocking pipes, in the bots' sandbox")
	r.dur("peer", label+names[1], f.p99, "")
	r.dur("peer", label+names[2], f.hostCPU, "all host threads / moves")
	r.dur("peer", label+names[3], f.botCPU, "the peer's cgroup / moves")
	r.add(Figure{Section: "peer", Name: label + names[4], Value: float64(time.Second) / float64(f.match), Unit: "/s",
		Note: fmt.Sprintf("two peers, each round a line to both then both answers; %s per match, %s per round", fmtDur(f.match), fmtDur(f.matchRound))})
}

// vsPeer sets the last figure's multiple of the peer's: value / anchor for a time, anchor's
// rate / value for a rate (so both read as "costs this many times the peer's").
func (r *runner) vsPeer(p *peerFigures, anchor time.Duration) {
	f := &r.rep.Figures[len(r.rep.Figures)-1]
	if p == nil || anchor <= 0 || f.Missing != "" || f.Value <= 0 {
		return
	}
	switch f.Unit {
	case "ns":
		f.PeerX = f.Value / float64(anchor)
	case "/s":
		f.PeerX = (float64(time.Second) / f.Value) / float64(anchor)
	default:
		return
	}
	f.Peer = p.label
}

// peerTarget marks the last figure with a target relative to its peer ("<= 1.5x Go peer").
func (r *runner) peerTarget(most float64) {
	f := &r.rep.Figures[len(r.rep.Figures)-1]
	if f.Peer == "" {
		return
	}
	r.target(fmt.Sprintf("<= %gx %s", most, f.Peer), f.PeerX <= most)
}

// vsPeerP50 and vsPeerP99 set the last figure's multiple of the peer's move p50 or p99.
func (r *runner) vsPeerP50(p *peerFigures) {
	if p != nil {
		r.vsPeer(p, p.p50)
	}
}

func (r *runner) vsPeerP99(p *peerFigures) {
	if p != nil {
		r.vsPeer(p, p.p99)
	}
}
