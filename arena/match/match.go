package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Conn is one open seat.
type Conn interface {
	// Act sends req and waits at most timeout. A timeout must return an error wrapping
	// ErrTimeout; a dead bot an error wrapping ErrDead.
	Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error)
	End(req *arenav1.EndRequest, timeout time.Duration)
}

// Player is one bot (a process, or a bot in the host's own process).
type Player interface {
	Label() string
	Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (Conn, error)
	Alive() bool
	// Why says why a dead player is gone.
	Why() string
	// Tail returns the player's last n lines of stderr.
	Tail(n int) []string
}

// Errors a Conn reports.
var (
	ErrTimeout = errors.New("no answer within the deadline")
	ErrDead    = errors.New("bot is not running")
)

// Measurer is implemented by connections that can read their bot's CPU time and memory
// cheaply; the runner diffs two readings around each move when Options.MeasureMoves is set.
type Measurer interface {
	Snapshot() (cpu time.Duration, memoryBytes int64)
}

// Recorder receives every step as it is applied (the replay writer implements it).
type Recorder interface {
	Step(step int, answers []game.Answer)
}

// Options tune a match.
type Options struct {
	MatchID string
	// Deadline per move (default 1 s).
	Deadline time.Duration
	// ClockMs overrides the game's per-seat clock (0: the game's default, -1: none).
	ClockMs      int64
	StartTimeout time.Duration
	EndTimeout   time.Duration
	Recorder     Recorder
	// TailLines of stderr quoted in crash faults (default 5).
	TailLines int
	// MeasureMoves reads each bot's CPU time and memory around every move (two small reads
	// per move; for a process holding several seats at once the readings overlap).
	MeasureMoves bool
}

// SeatStats is per-seat timing.
type SeatStats struct {
	Moves int           `json:"moves"`
	Total time.Duration `json:"total_ns"`
	Max   time.Duration `json:"max_ns"`
	// CPU totals and peaks, when moves are measured.
	CPU        time.Duration `json:"cpu_ns,omitempty"`
	MaxCPU     time.Duration `json:"max_cpu_ns,omitempty"`
	PeakMemory int64         `json:"peak_memory_bytes,omitempty"`
}

// Result of a match.
type Result struct {
	Outcome  game.Outcome  `json:"outcome"`
	Steps    int           `json:"steps"`
	Seats    []game.Seat   `json:"seats"`
	Stats    []SeatStats   `json:"stats"`
	Duration time.Duration `json:"duration_ns"`
}

type seatState struct {
	conn      Conn
	inline    bool
	player    Player
	openErr   string
	clockLeft time.Duration
	req       arenav1.ActRequest
	stats     SeatStats
}

// Run plays one match to the end. Only engine bugs and cancellation are errors.
func Run(ctx context.Context, spec game.Spec, cfg game.Config, players []Player, opt Options) (*Result, error) {
	if opt.Deadline <= 0 {
		opt.Deadline = time.Second
	}
	if opt.StartTimeout <= 0 {
		opt.StartTimeout = 10 * time.Second
	}
	if opt.EndTimeout <= 0 {
		opt.EndTimeout = time.Second
	}
	if opt.TailLines <= 0 {
		opt.TailLines = 5
	}
	clock := spec.ClockMs
	if opt.ClockMs != 0 {
		clock = opt.ClockMs
	}
	if clock < 0 {
		clock = 0
	}
	if len(players) != len(cfg.Players) {
		return nil, fmt.Errorf("match: %d players for %d configured", len(players), len(cfg.Players))
	}
	// Games that show bots each other's class names get what each bot calls itself.
	cfg.Players = append([]game.Player(nil), cfg.Players...)
	for i, p := range players {
		if n, ok := p.(interface{ BotName() string }); ok && cfg.Players[i].Class == "" {
			cfg.Players[i].Class = n.BotName()
		}
	}
	eng, err := spec.NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	// Cancellation (Ctrl-C, a tournament stopping) must not wait for a slow move: stop every
	// player that can be stopped, which makes its pending answers fail at once.
	defer context.AfterFunc(ctx, func() {
		for _, p := range players {
			if s, ok := p.(interface{ Stop(why string) }); ok {
				s.Stop("the match was interrupted")
			}
		}
	})()
	start := time.Now()
	seatList := eng.Seats()
	seats := make([]*seatState, len(seatList))
	names := make([]string, len(seatList))
	for i, s := range seatList {
		names[i] = s.Name
	}
	for i, s := range seatList {
		st := &seatState{player: players[s.Player], clockLeft: time.Duration(clock) * time.Millisecond}
		st.req.MatchId, st.req.Seat = opt.MatchID, int32(i)
		sreq := &arenav1.StartRequest{MatchId: opt.MatchID, Seat: int32(i), Game: spec.Name, Players: names,
			DeadlineMs: opt.Deadline.Milliseconds(), ClockMs: clock}
		eng.Setup(i, sreq)
		if !st.player.Alive() {
			st.openErr = "bot is not running: " + st.player.Why()
		} else if c, err := st.player.Open(ctx, sreq, opt.StartTimeout); err != nil {
			st.openErr = "could not open its seat: " + err.Error()
		} else {
			st.conn = c
			// A bot in this process answers at once: asking it from a goroutine only costs.
			in, ok := c.(interface{ Inline() bool })
			st.inline = ok && in.Inline()
		}
		seats[i] = st
	}

	var answers []game.Answer
	steps := 0
	// Reused every step: the hot loop allocates nothing of its own.
	var order atomic.Int32
	var wg sync.WaitGroup
	for !eng.Done() {
		if err := ctx.Err(); err != nil {
			closeAll(eng, seats, opt)
			return nil, err
		}
		pending := eng.Pending()
		if len(pending) == 0 {
			closeAll(eng, seats, opt)
			return nil, fmt.Errorf("match: engine %s is not done but nobody must act (engine bug)", spec.Name)
		}
		steps++
		answers = answers[:0]
		for range pending {
			answers = append(answers, game.Answer{})
		}
		order.Store(0)
		// Engines are not safe for concurrent use: observe every seat first, then ask them all
		// at once, the last one from this goroutine.
		for _, s := range pending {
			eng.Observe(s, &seats[s].req)
		}
		last := len(pending) - 1
		for i, s := range pending[:last] {
			if seats[s].inline {
				send(seats[s], s, int64(steps), opt, &answers[i], &order)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				send(seats[s], s, int64(steps), opt, &answers[i], &order)
			}()
		}
		send(seats[pending[last]], pending[last], int64(steps), opt, &answers[last], &order)
		wg.Wait()
		if opt.Recorder != nil {
			opt.Recorder.Step(steps, answers)
		}
		if err := eng.Apply(answers); err != nil {
			closeAll(eng, seats, opt)
			return nil, fmt.Errorf("match: engine %s: %w", spec.Name, err)
		}
	}
	closeAll(eng, seats, opt)
	if err := ctx.Err(); err != nil {
		// Faults caused by stopping the players are not the bots' doing: no result.
		return nil, err
	}
	res := &Result{Outcome: eng.Outcome(), Steps: steps, Seats: seatList, Duration: time.Since(start)}
	for _, st := range seats {
		res.Stats = append(res.Stats, st.stats)
	}
	return res, nil
}

// send asks one seat and fills out; it touches only this seat's state.
func send(st *seatState, seat int, step int64, opt Options, out *game.Answer, order *atomic.Int32) {
	out.Seat = seat
	if st.conn == nil || !st.player.Alive() {
		why := st.openErr
		if why == "" {
			why = "bot is not running: " + st.player.Why()
		}
		out.Fault = &game.Fault{Kind: game.FaultCrash, Detail: why}
		out.Order = int(order.Add(1) - 1)
		return
	}
	timeout := opt.Deadline
	clocked := st.clockLeft > 0
	if clocked && st.clockLeft < timeout {
		timeout = st.clockLeft
	}
	req := &st.req
	req.Step = step
	req.DeadlineMs = timeout.Milliseconds()
	if clocked {
		req.ClockRemainingMs = st.clockLeft.Milliseconds()
	}
	var meter Measurer
	var cpu0 time.Duration
	if opt.MeasureMoves {
		if m, ok := st.conn.(Measurer); ok {
			meter = m
			cpu0, _ = m.Snapshot()
		}
	}
	t0 := time.Now()
	resp, err := st.conn.Act(req, timeout)
	el := time.Since(t0)
	if meter != nil && err == nil {
		cpu1, mem := meter.Snapshot()
		out.CPU, out.MemoryBytes = cpu1-cpu0, mem
		st.stats.CPU += out.CPU
		st.stats.MaxCPU = max(st.stats.MaxCPU, out.CPU)
		st.stats.PeakMemory = max(st.stats.PeakMemory, mem)
	}
	out.Order = int(order.Add(1) - 1)
	out.Elapsed = el
	st.stats.Moves++
	st.stats.Total += el
	if el > st.stats.Max {
		st.stats.Max = el
	}
	if clocked {
		st.clockLeft -= el
	}
	switch {
	case errors.Is(err, ErrTimeout):
		what := fmt.Sprintf("no answer within %v", timeout)
		if clocked && timeout < opt.Deadline {
			what = "its clock ran out"
		}
		out.Fault = &game.Fault{Kind: game.FaultTimeout, Detail: what}
	case err != nil:
		out.Fault = &game.Fault{Kind: game.FaultCrash, Detail: crashText(st.player, err, opt.TailLines)}
	case resp.GetStep() != step:
		out.Fault = &game.Fault{Kind: game.FaultGarbage, Detail: fmt.Sprintf("answered step %d to request %d", resp.GetStep(), step)}
	case resp.GetError() != nil:
		e := resp.GetError()
		if e.GetKind() == arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER {
			out.Fault = &game.Fault{Kind: game.FaultGarbage, Detail: e.GetMessage()}
		} else {
			d := "raised: " + e.GetMessage()
			if tb := strings.TrimSpace(e.GetTraceback()); tb != "" {
				d += "\n" + lastLines(tb, 8)
			}
			out.Fault = &game.Fault{Kind: game.FaultCrash, Detail: d}
		}
	case clocked && st.clockLeft <= 0:
		out.Fault = &game.Fault{Kind: game.FaultTimeout, Detail: "its clock ran out"}
	default:
		out.Action = resp
	}
}

func crashText(p Player, err error, n int) string {
	why := p.Why()
	if why == "" {
		why = err.Error()
	}
	d := "crashed: " + why
	if tail := p.Tail(n); len(tail) > 0 {
		d += "\nlast stderr lines:\n  " + strings.Join(tail, "\n  ")
	}
	return d
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func closeAll(eng game.Engine, seats []*seatState, opt Options) {
	var wg sync.WaitGroup
	for i, st := range seats {
		if st.conn == nil {
			continue
		}
		req := &arenav1.EndRequest{MatchId: opt.MatchID, Seat: int32(i)}
		if eng.Done() {
			eng.Final(i, req)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.conn.End(req, opt.EndTimeout)
		}()
	}
	wg.Wait()
}
