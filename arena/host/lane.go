package host

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/botarena/arena/arena/bounded"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sandbox"
	"github.com/botarena/arena/sdk/handshake"
)

// The fast lane (docs/protocol.md, "The fast lane"): every bot process gets, at spawn, its end
// of a socket pair; a bot that announces handshake.LaneName in Describe gets its moves there as
// length-prefixed frames, read and written by the host with plain non-waiting system calls and
// poll(2) on the caller's goroutine (no gRPC, HTTP/2, TLS or Go netpoller, no goroutine per
// move). Timeouts, the CPU clock, faults and their texts are those of the gRPC path.

// LaneEnvOff is the environment variable that, set to "grpc", keeps every bot's moves on gRPC
// (as Options.GRPCOnly does): tests play both lanes, and an operator can rule the lane out.
const LaneEnvOff = "ARENA_MOVES"

// laneFD is where the bot process finds its end of the lane: the sandbox passes Spec.Files
// from descriptor 3 on.
const laneFD = 3

// laneRead is how much one read takes from the lane at most.
const laneRead = 64 << 10

// Errors of the lane, which the seat turns into the bot's fault as it does gRPC's (broken):
// a refused frame (Internal) kills the bot at once; a closed lane waits for its exit.
var errLaneClosed = errors.New("the bot closed its lane")

// refused is a frame the host will not take, charged to the bot.
func refused(format string, a ...any) error {
	return status.Error(codes.Internal, "lane: "+fmt.Sprintf(format, a...))
}

// laneKey names one move: answers are matched to their requests by it, since one lane carries
// every seat its process holds.
type laneKey struct {
	match string
	seat  int32
	step  int64
}

// lane is the host's end of one bot process's fast lane.
type lane struct {
	fd int
	// fdMu guards users and closing: the descriptor is closed once nobody uses it. It is never
	// held with mu, so a CPU-clock stop (interrupt) can run while a reader holds mu.
	fdMu    sync.Mutex
	users   int
	closing bool
	// wmu orders writers (every seat of the process writes here); out is the frame written.
	wmu sync.Mutex
	out []byte
	// mu guards everything below: the moves awaiting an answer, the bytes read that are not
	// yet a whole frame, and the lane's failure.
	mu     sync.Mutex
	flight map[laneKey]*Move
	in     []byte
	fail   error
	// bot is the process at the other end, stopped at the first frame the host refuses.
	bot *Bot
	// readers counts the goroutines awaiting answers on this lane (one, unless several
	// matches share the process).
	readers atomic.Int32
}

// newLane makes a lane: the host's end (close-on-exec, non-blocking) and the bot's end, which
// the sandbox passes to the bot (and the caller closes once the bot has started).
func newLane() (*lane, *os.File, error) {
	// Both ends close-on-exec before any fork can see them (SOCK_CLOEXEC is not everywhere;
	// Go's own forks wait for ForkLock): the bot gets its end only as the sandbox passes it.
	syscall.ForkLock.RLock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fds[0])
		unix.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, nil, fmt.Errorf("cannot make the fast lane: %w", err)
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		_ = unix.Close(fds[0])
		_ = unix.Close(fds[1])
		return nil, nil, fmt.Errorf("cannot make the fast lane: %w", err)
	}
	return &lane{fd: fds[0], flight: map[laneKey]*Move{}}, os.NewFile(uintptr(fds[1]), "arena-lane"), nil
}

// acquire takes a use of the descriptor; false once the lane is closing.
func (l *lane) acquire() bool {
	l.fdMu.Lock()
	defer l.fdMu.Unlock()
	if l.closing {
		return false
	}
	l.users++
	return true
}

func (l *lane) release() {
	l.fdMu.Lock()
	defer l.fdMu.Unlock()
	l.users--
	if l.users == 0 && l.closing {
		_ = unix.Close(l.fd)
	}
}

// close shuts the lane (waking any reader) and closes it once nobody uses it.
func (l *lane) close() {
	l.fdMu.Lock()
	defer l.fdMu.Unlock()
	if l.closing {
		return
	}
	l.closing = true
	_ = unix.Shutdown(l.fd, unix.SHUT_RDWR)
	if l.users == 0 {
		_ = unix.Close(l.fd)
	}
}

// interrupt wakes whoever waits on the lane, for a move the CPU clock stopped: the bot is
// being stopped, so nothing more is read from it.
func (l *lane) interrupt() {
	if l.acquire() {
		_ = unix.Shutdown(l.fd, unix.SHUT_RD)
		l.release()
	}
}

// send writes one request frame, waiting for room in the socket until deadline (a bot that
// does not read its lane does not answer either: the move runs out as any other).
func (l *lane) send(req *arenav1.ActRequest, deadline time.Time) error {
	if !l.acquire() {
		return errLaneClosed
	}
	defer l.release()
	l.wmu.Lock()
	defer l.wmu.Unlock()
	out, err := handshake.AppendFrame(l.out[:0], req)
	l.out = out
	if err != nil {
		return fmt.Errorf("encode the request: %w", err)
	}
	for len(out) > 0 {
		n, err := unix.SendmsgN(l.fd, out, nil, nil, unix.MSG_NOSIGNAL|unix.MSG_DONTWAIT)
		switch {
		case err == nil:
			out = out[n:]
			continue
		case err == unix.EINTR:
			continue
		case err != unix.EAGAIN:
			return errLaneClosed
		}
		fds := []unix.PollFd{{Fd: int32(l.fd), Events: unix.POLLOUT}}
		left := time.Until(deadline)
		if left <= 0 {
			return errLaneFull
		}
		if _, err := unix.Poll(fds, pollMs(left)); err != nil && err != unix.EINTR {
			return errLaneClosed
		}
	}
	return nil
}

// errLaneFull is a request the bot did not take within its move's time.
var errLaneFull = errors.New("the bot did not read its lane")

// pollMs is a poll timeout in whole milliseconds, rounded up (so a wait never spins).
func pollMs(d time.Duration) int {
	ms := (d + time.Millisecond - 1) / time.Millisecond
	return int(min(ms, 1<<30))
}

// pump reads what the lane holds, without waiting, and finishes the moves it answers. A frame
// the host refuses fails the lane, and every move on it, as the bot's fault.
func (l *lane) pump(maxMsg int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.fail == nil {
		if cap(l.in)-len(l.in) < laneRead {
			l.in = slices.Grow(l.in, laneRead)
		}
		free := l.in[len(l.in):cap(l.in)]
		n, err := unix.Read(l.fd, free)
		switch {
		case err == unix.EINTR:
			continue
		case err == unix.EAGAIN:
			return
		case err != nil || n == 0:
			l.failAll(errLaneClosed)
			return
		}
		l.in = l.in[:len(l.in)+n]
		l.frames(maxMsg)
		if n < len(free) {
			return // drained
		}
	}
}

// frames finishes a move for every whole frame read.
func (l *lane) frames(maxMsg int) {
	at := 0
	for l.fail == nil && len(l.in)-at >= handshake.LaneHeader {
		n := binary.BigEndian.Uint32(l.in[at:])
		if uint64(n) > uint64(maxMsg) {
			l.failAll(refused("a frame of %d bytes, over the limit of %d", n, maxMsg))
			return
		}
		end := at + handshake.LaneHeader + int(n)
		if end > len(l.in) {
			break
		}
		resp := &arenav1.ActResponse{}
		if err := proto.Unmarshal(l.in[at+handshake.LaneHeader:end], resp); err != nil {
			l.failAll(refused("a frame that is not an ActResponse: %v", err))
			return
		}
		at = end
		k := laneKey{resp.GetMatchId(), resp.GetSeat(), resp.GetStep()}
		m := l.flight[k]
		if m == nil {
			l.failAll(refused("an answer for match %q seat %d step %d, which no request on the lane is waiting for",
				bounded.OneLine(k.match, bounded.Name), k.seat, k.step))
			return
		}
		delete(l.flight, k)
		m.answered(resp)
	}
	// Keep the start of a frame still coming; drop a big buffer once it is empty.
	rest := copy(l.in, l.in[at:])
	l.in = l.in[:rest]
	if rest == 0 && cap(l.in) > 4*laneRead {
		l.in = nil
	}
}

// failAll fails the lane and every move still awaiting its answer on it.
func (l *lane) failAll(err error) {
	if l.fail == nil {
		l.fail = err
		if err != errLaneClosed && l.bot != nil {
			// Stopped now, not at its next move: a frame nobody asked for is refused even
			// when it came after the match's last answer. (Not under mu: the kill waits.)
			go l.bot.Kill("sent an answer the host refuses: " + err.Error())
		}
	}
	for k, m := range l.flight {
		delete(l.flight, k)
		m.finish(l.fail)
	}
}

// Move is one move sent on a seat's fast lane (Seat.Post), whose answer Await reads.
type Move struct {
	seat  *Seat
	key   laneKey
	byCPU bool
	// limit is the move's wall limit (wall clock) or CPU budget (CPU clock); wall its wall cap.
	limit, wall time.Duration
	t0          time.Time
	deadline    time.Time
	// Set when the move is over (under its lane's mu, or before it was posted).
	done  bool
	resp  *arenav1.ActResponse
	err   error
	usage MoveUsage
	// stopped is set by the CPU clock's poller when a limit ran out (see clockWatch).
	stopped atomic.Bool
	// The outcome, once settled (Result).
	settled bool
	out     *arenav1.ActResponse
	outU    MoveUsage
	outErr  error
}

// answered finishes the move with its answer (lane's mu held): the CPU clock is read here,
// once, as the answer is read.
func (m *Move) answered(resp *arenav1.ActResponse) {
	m.resp = resp
	m.finish(nil)
}

// finish ends the move (lane's mu held, or not yet posted).
func (m *Move) finish(err error) {
	if m.done {
		return
	}
	m.done, m.err = true, err
	if m.byCPU {
		m.usage = m.seat.watch.end()
	} else {
		m.usage.Wall = time.Since(m.t0)
		m.usage.Own = m.usage.Wall
	}
}

func (m *Move) stop() {
	m.stopped.Store(true)
	m.seat.bot.lane.interrupt()
}

// OnLane reports whether this seat's moves travel on the fast lane (Post and Await).
func (s *Seat) OnLane() bool { return s.bot.lane != nil }

// Post sends one move's request on the seat's fast lane; the move's clock runs from now. Under
// the CPU clock (byCPU) limit is its CPU budget and wall its cap on its own time, as ActCPU's;
// otherwise limit is its wall time. The answer is read by Await, the outcome given by Result.
func (s *Seat) Post(req *arenav1.ActRequest, limit, wall time.Duration, byCPU bool) *Move {
	m := &s.move
	*m = Move{seat: s, key: laneKey{s.match, s.seat, req.GetStep()}, byCPU: byCPU && s.bot.MeasuresCPU(), limit: limit, wall: wall}
	m.stopped.Store(false)
	l := s.bot.lane
	if !s.bot.Alive() || l == nil {
		m.t0, m.done, m.err = time.Now(), true, errNotPosted
		return m
	}
	if m.byCPU {
		proc := s.bot.rn.proc
		s.watch.begin(proc, s.bot.mark.get(proc), limit, wall, m.stop, true)
		m.t0 = s.watch.t0
		m.deadline = m.t0.Add(wall*StallFactor + time.Second)
	} else {
		m.t0 = time.Now()
		m.deadline = m.t0.Add(limit)
	}
	l.mu.Lock()
	if l.fail != nil {
		m.finish(l.fail)
		l.mu.Unlock()
		return m
	}
	l.flight[m.key] = m
	l.mu.Unlock()
	// The frame goes out after the move is registered: its answer may be read at once.
	if err := l.send(req, m.t0.Add(max(limit, wall))); err != nil {
		l.mu.Lock()
		if l.flight[m.key] == m {
			delete(l.flight, m.key)
		}
		m.finish(err)
		l.mu.Unlock()
	} else if m.byCPU {
		// The CPU clock's own-time cap counts from the request being in the bot's socket, and
		// does not charge while an answer waits unread (the host is late, not the bot).
		s.watch.answerPending(l.unread)
		s.watch.written()
	}
	return m
}

// errNotPosted is a move that was never sent: its bot was already gone.
var errNotPosted = errors.New("not posted")

// Await reads the answers of moves (posted on any seats' lanes) as they come, each finished
// by its own clock when its answer is read, until every move is over: answered, out of time,
// or failed. It waits in poll(2) on the caller's goroutine.
func Await(moves ...*Move) {
	var lanes []*lane
	var fds []unix.PollFd
	var lastPoll time.Time
	for _, m := range moves {
		if l := m.seat.bot.lane; l != nil && !slices.Contains(lanes, l) {
			lanes = append(lanes, l)
		}
	}
	held := lanes[:0:0]
	for _, l := range lanes {
		if l.acquire() {
			held = append(held, l)
			l.readers.Add(1)
		}
	}
	defer func() {
		for _, l := range held {
			l.readers.Add(-1)
			l.release()
		}
	}()
	for {
		// Moves whose lane is gone, stopped by the CPU clock, or out of wall time.
		now := time.Now()
		var next time.Time
		shared := false
		fds = fds[:0]
		for _, m := range moves {
			l := m.seat.bot.lane
			if l == nil {
				continue // never posted
			}
			l.mu.Lock()
			switch {
			case m.done:
			case !slices.Contains(held, l):
				delete(l.flight, m.key)
				m.finish(errLaneClosed)
			case l.fail != nil:
				m.finish(l.fail)
			case m.stopped.Load():
				delete(l.flight, m.key)
				m.finish(errStopped)
			case !now.Before(m.deadline) && !lastPoll.Before(m.deadline):
				// Out of time, and a poll since found no answer (an answer that came before
				// the host looked is taken, as gRPC's timer takes it).
				delete(l.flight, m.key)
				m.finish(errNoAnswer)
			default:
				if next.IsZero() || m.deadline.Before(next) {
					next = m.deadline
				}
				if !slices.ContainsFunc(fds, func(p unix.PollFd) bool { return p.Fd == int32(l.fd) }) {
					fds = append(fds, unix.PollFd{Fd: int32(l.fd), Events: unix.POLLIN})
					shared = shared || l.readers.Load() > 1
				}
			}
			l.mu.Unlock()
		}
		if len(fds) == 0 {
			// A move the CPU clock stopped is settled first: its bot is stopped with the
			// limit's text before its other seats' moves, cut with it, report how it ended.
			for _, m := range moves {
				if m.stopped.Load() {
					m.Result()
				}
			}
			return
		}
		wait := max(time.Until(next), 0)
		if shared {
			// Another match reads this lane too and may read this one's answers: look again soon.
			wait = min(wait, time.Millisecond)
		}
		n, err := unix.Poll(fds, pollMs(wait))
		if err != nil && err != unix.EINTR {
			n = 0
		}
		lastPoll = time.Now()
		if n <= 0 {
			continue
		}
		for _, p := range fds {
			if p.Revents == 0 {
				continue
			}
			for _, l := range held {
				if int32(l.fd) == p.Fd {
					l.pump(MaxMessage)
				}
			}
		}
	}
}

// Why a move ended without its answer (Result turns each into the bot's fault).
var (
	errStopped  = errors.New("stopped by the CPU clock")
	errNoAnswer = errors.New("no answer in time")
)

// Result is the move's outcome once Await has returned, as Act's (wall clock) or ActCPU's
// (CPU clock) would be, texts included: an overrun kills the bot and returns ErrTimeout, a
// stall ErrStalled, a refused frame or a closed lane ErrDead with how the bot ended.
func (m *Move) Result() (*arenav1.ActResponse, MoveUsage, error) {
	if !m.settled {
		m.out, m.outU, m.outErr = m.settle()
		m.settled = true
	}
	return m.out, m.outU, m.outErr
}

func (m *Move) settle() (*arenav1.ActResponse, MoveUsage, error) {
	s := m.seat
	if m.err == errNotPosted {
		return nil, MoveUsage{}, fmt.Errorf("%w: %s", ErrDead, s.bot.Why())
	}
	if m.byCPU {
		return s.cpuResult(m.resp, m.usage, m.err, m.stopped.Load(), m.limit, m.wall)
	}
	u := m.usage
	switch {
	case m.err == nil:
		return m.resp, u, nil
	case m.err == errNoAnswer || m.err == errLaneFull:
		s.bot.KillFor(sandbox.KindTimeLimit, fmt.Sprintf("no answer within %v", m.limit))
		return nil, u, ErrTimeout
	}
	return nil, u, s.broken(m.err)
}

// actLane is Act (or ActCPU) for a seat on the fast lane: one move posted and awaited.
func (s *Seat) actLane(req *arenav1.ActRequest, limit, wall time.Duration, byCPU bool) (*arenav1.ActResponse, MoveUsage, error) {
	m := s.Post(req, limit, wall, byCPU)
	Await(m)
	return m.Result()
}

// lanes keeps what the host shows of a bot's DescribeResponse.lanes: the lane it offered, if
// the bot announced it.
func lanes(d *arenav1.DescribeResponse) []string {
	if slices.Contains(d.GetLanes(), handshake.LaneName) {
		return []string{handshake.LaneName}
	}
	return nil
}
