package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/arena/arena/bounded"
	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// Conn is one open seat.
type Conn interface {
	// Act sends req and waits at most timeout. A timeout must return an error wrapping
	// ErrTimeout; a dead bot an error wrapping ErrDead.
	Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error)
	// End closes the seat; an overrun must return an error wrapping ErrTimeout.
	End(req *arenav1.EndRequest, timeout time.Duration) error
}

// Player is one bot (a process, or a bot in the host's own process).
type Player interface {
	Label() string
	// Open starts a seat; an overrun of timeout must return an error wrapping ErrTimeout.
	Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (Conn, error)
	Alive() bool
	// Why says why a dead player is gone.
	Why() string
	// Tail returns the player's last n lines of stderr.
	Tail(n int) []string
}

// Errors a Conn reports: the same values as game.ErrTimeout and game.ErrDead, which the host
// returns, so nothing translates them.
var (
	ErrTimeout = game.ErrTimeout
	ErrDead    = game.ErrDead
)

// Measurer is implemented by connections that can read their bot's CPU time and memory
// cheaply; the runner diffs two readings around each move when Options.MeasureMoves is set.
type Measurer interface {
	Snapshot() (cpu time.Duration, memoryBytes int64)
}

// Recorder receives every step as it is applied (the replay writer implements it). One that
// also has a method Begin(game.Config) gets the match's configuration as the engine got it
// (each player's Class filled in) before the first step.
type Recorder interface {
	Step(step int, answers []game.Answer)
}

// Options tune a match.
type Options struct {
	MatchID string
	// Deadline per move (default 1 s).
	Deadline time.Duration
	// ClockMs overrides the game's per-seat clock (0: the game's own, from its "clock"
	// parameter or default, -1: none).
	ClockMs int64
	// StartDeadline and EndDeadline bound each seat's Start and End calls (default
	// DefaultStartDeadline, DefaultEndDeadline); the process start-up has its own timeout.
	StartDeadline time.Duration
	EndDeadline   time.Duration
	Recorder      Recorder
	// TailLines of stderr quoted in crash faults (default 5).
	TailLines int
	// MeasureMoves reads each bot's CPU time and memory around every move (two small reads
	// per move; for a process holding several seats at once the readings overlap).
	MeasureMoves bool
}

// Defaults for Options.
const (
	DefaultStartDeadline = 3 * time.Second
	DefaultEndDeadline   = 3 * time.Second
)

// MaxAction bounds an answer that carries an action (game.Judge applies it).
const MaxAction = game.MaxAction

// WhereEnd is the place of a fault charged at a seat's End, after the match was decided.
const WhereEnd = "end of match"

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
	openFault *game.Fault
	clockLeft time.Duration
	req       arenav1.ActRequest
	stats     SeatStats
}

// Run plays one match to the end. Only engine bugs and cancellation are errors.
func Run(ctx context.Context, spec game.Spec, cfg game.Config, players []Player, opt Options) (*Result, error) {
	if opt.Deadline <= 0 {
		opt.Deadline = time.Second
	}
	if opt.StartDeadline <= 0 {
		opt.StartDeadline = DefaultStartDeadline
	}
	if opt.EndDeadline <= 0 {
		opt.EndDeadline = DefaultEndDeadline
	}
	if opt.TailLines <= 0 {
		opt.TailLines = 5
	}
	if len(players) != len(cfg.Players) {
		return nil, fmt.Errorf("match: %d players for %d configured", len(players), len(cfg.Players))
	}
	// Games that show bots each other's class names get what each bot calls itself: the one
	// place a player's Class is set.
	cfg.Players = append([]game.Player(nil), cfg.Players...)
	for i, p := range players {
		if n, ok := p.(interface{ BotName() string }); ok && cfg.Players[i].Class == "" {
			cfg.Players[i].Class = n.BotName()
		}
	}
	if b, ok := opt.Recorder.(interface{ Begin(game.Config) }); ok {
		b.Begin(cfg)
	}
	eng, err := spec.NewEngine(cfg)
	if err != nil {
		return nil, err
	}
	// The clock the engine charges, from the same parser (game.Spec.Clock).
	clock, err := spec.Clock(cfg)
	if err != nil {
		return nil, err
	}
	if opt.ClockMs != 0 {
		clock = time.Duration(opt.ClockMs) * time.Millisecond
	}
	clock = max(clock, 0)
	// What a bot is told, in whole milliseconds: a clock under one is still a clock.
	clockMs := clock.Milliseconds()
	if clock > 0 && clockMs == 0 {
		clockMs = 1
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
	sreqs := make([]*arenav1.StartRequest, len(seatList))
	for i, s := range seatList {
		st := &seatState{player: players[s.Player], clockLeft: clock}
		st.req.MatchId, st.req.Seat = opt.MatchID, int32(i)
		sreqs[i] = &arenav1.StartRequest{MatchId: opt.MatchID, Seat: int32(i), Game: spec.Name, Players: names,
			DeadlineMs: opt.Deadline.Milliseconds(), ClockMs: clockMs}
		eng.Setup(i, sreqs[i])
		seats[i] = st
	}
	// Seats open at once: a slow Start costs the match one Start deadline, not one per seat.
	var wg sync.WaitGroup
	for i, st := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.open(ctx, sreqs[i], opt.StartDeadline)
		}()
	}
	wg.Wait()

	var answers []game.Answer
	steps := 0
	// Reused every step: the hot loop allocates nothing of its own.
	var order atomic.Int32
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
				send(spec.Name, seats[s], s, int64(steps), opt, &answers[i], &order)
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				send(spec.Name, seats[s], s, int64(steps), opt, &answers[i], &order)
			}()
		}
		send(spec.Name, seats[pending[last]], pending[last], int64(steps), opt, &answers[last], &order)
		wg.Wait()
		if opt.Recorder != nil {
			opt.Recorder.Step(steps, answers)
		}
		if err := eng.Apply(answers); err != nil {
			closeAll(eng, seats, opt)
			return nil, fmt.Errorf("match: engine %s: %w", spec.Name, err)
		}
	}
	endFaults := closeAll(eng, seats, opt)
	if err := ctx.Err(); err != nil {
		// Faults caused by stopping the players are not the bots' doing: no result.
		return nil, err
	}
	res := &Result{Outcome: eng.Outcome(), Steps: steps, Seats: seatList, Duration: time.Since(start)}
	res.Outcome.Faults = append(res.Outcome.Faults, endFaults...)
	for _, st := range seats {
		res.Stats = append(res.Stats, st.stats)
	}
	return res, nil
}

// open starts the seat; a failure becomes the fault charged at the seat's first move, under
// the game's rule (a Start overrun is a timeout like a move's).
func (st *seatState) open(ctx context.Context, req *arenav1.StartRequest, deadline time.Duration) {
	if !st.player.Alive() {
		st.openFault = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("bot is not running: "+st.player.Why(), bounded.Detail)}
		return
	}
	c, err := st.player.Open(ctx, req, deadline)
	switch {
	case errors.Is(err, ErrTimeout):
		st.openFault = &game.Fault{Kind: game.FaultTimeout, Detail: fmt.Sprintf("did not open its seat within %v (Start)", deadline)}
	case err != nil:
		st.openFault = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("could not open its seat: "+err.Error(), bounded.Detail)}
	default:
		st.conn = c
		// A bot in this process answers at once: asking it from a goroutine only costs.
		in, ok := c.(interface{ Inline() bool })
		st.inline = ok && in.Inline()
	}
}

// send asks one seat and fills out; it touches only this seat's state.
func send(gameName string, st *seatState, seat int, step int64, opt Options, out *game.Answer, order *atomic.Int32) {
	out.Seat = seat
	if st.conn == nil || !st.player.Alive() {
		f := st.openFault
		if f == nil || st.conn != nil {
			f = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("bot is not running: "+st.player.Why(), bounded.Detail)}
		}
		out.Fault = f
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
	default:
		out.Action, out.Fault = game.Judge(gameName, step, resp)
		if out.Fault == nil && clocked && st.clockLeft <= 0 {
			out.Action, out.Fault = nil, &game.Fault{Kind: game.FaultTimeout, Detail: "its clock ran out"}
		}
	}
}

func crashText(p Player, err error, n int) string {
	why := p.Why()
	if why == "" {
		why = err.Error()
	}
	d := "crashed: " + bounded.Text(why, bounded.Message)
	if tail := p.Tail(n); len(tail) > 0 {
		d += "\nlast stderr lines:\n  " + strings.Join(tail, "\n  ")
	}
	return bounded.Text(d, bounded.Detail)
}

// closeAll ends every open seat at once. An End overrun is recorded as a timeout fault (the
// host stopped the bot); the match is already decided, so it changes no result.
func closeAll(eng game.Engine, seats []*seatState, opt Options) []game.FaultRecord {
	var wg sync.WaitGroup
	errs := make([]error, len(seats))
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
			errs[i] = st.conn.End(req, opt.EndDeadline)
		}()
	}
	wg.Wait()
	var out []game.FaultRecord
	for i, err := range errs {
		if errors.Is(err, ErrTimeout) {
			out = append(out, game.FaultRecord{Seat: i, Where: WhereEnd, Kind: game.FaultTimeout,
				Detail:  fmt.Sprintf("did not close its seat within %v (End)", opt.EndDeadline),
				Penalty: "the bot was stopped; the match was already decided"})
		}
	}
	return out
}
