package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
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
	// ErrStalled is a move (or Start) the machine kept from finishing (see CPUConn): Run then
	// returns an error wrapping it, the match is void, and the runner plays it again.
	ErrStalled = game.ErrStalled
)

// ClockMode says what a move's time is.
type ClockMode string

// The clock modes.
const (
	// ClockWall charges a move the wall time from request to answer (the zero value's mode).
	ClockWall ClockMode = "wall"
	// ClockCPU charges a move the CPU time its bot's own processes (its cgroup) used, so a
	// busy machine costs no bot anything; the wall time is capped at WallFactor x the limit.
	ClockCPU ClockMode = "cpu"
)

// ParseClockMode reads a --clock-mode value.
func ParseClockMode(s string) (ClockMode, error) {
	switch ClockMode(s) {
	case ClockWall, ClockCPU:
		return ClockMode(s), nil
	}
	return "", fmt.Errorf("unknown clock mode %q: use cpu (each move charged its bot's CPU time) or wall", s)
}

// Proto is the mode as the wire names it.
func (m ClockMode) Proto() arenav1.ClockMode {
	if m == ClockCPU {
		return arenav1.ClockMode_CLOCK_MODE_CPU
	}
	return arenav1.ClockMode_CLOCK_MODE_WALL
}

// DefaultWallFactor is the CPU clock's wall-time backstop, as a multiple of a move's limit: a
// bot that sleeps or blocks is stopped there, and a bot using one core never gets near it.
const DefaultWallFactor = 3

// Usage is what one move used.
type Usage struct {
	CPU, Wall time.Duration
	// RunQueue is the time the bot's threads waited for a CPU in the move, as far as the host
	// read it (only for moves slower than their budget in wall time); Own is Wall minus it,
	// what the wall cap counts.
	RunQueue, Own time.Duration
	// OverCPU is set when the move was stopped for its CPU time (not its wall cap).
	OverCPU bool
	// Cause is the limit that stopped the move ("" when it answered).
	Cause Cause
	// Parts, for a move over its CPU budget, says what the bot's main process and its
	// sandbox's init used since its previous answer (where the host could read them).
	Parts string
}

// Cause names the limit that ran out in a timeout under the CPU clock.
type Cause string

// The causes of a timeout: the first two are the bot's fault; the machine's is no one's.
const (
	CauseCPU     Cause = "CPU budget"
	CauseWait    Cause = "its own waiting"
	CauseMachine Cause = "the machine"
)

// Wait is the bot's voluntary waiting in the move: its own time not spent on a CPU.
func (u Usage) Wait() time.Duration { return max(u.Own-u.CPU, 0) }

// Figures says what a move used: CPU, own waiting, run-queue delay, wall and CPU share.
func (u Usage) Figures() string {
	share := 0.0
	if u.Wall > 0 {
		share = 100 * float64(u.CPU) / float64(u.Wall)
	}
	f := fmt.Sprintf("CPU %v, own waiting %v, run-queue delay %v, wall %v, CPU share %.0f%%",
		roundMs(u.CPU), roundMs(u.Wait()), roundMs(u.RunQueue), roundMs(u.Wall), share)
	if u.Parts != "" {
		f += "; " + u.Parts
	}
	return f
}

func roundMs(d time.Duration) time.Duration {
	if d >= 10*time.Millisecond {
		return d.Round(100 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// CPUConn is a Conn that can charge a move its bot's CPU time: ActCPU stops the move once its
// bot has used more than cpu of CPU time or the move more than wall of wall time (either is a
// timeout wrapping ErrTimeout) and says what the move used, whatever the outcome.
type CPUConn interface {
	ActCPU(req *arenav1.ActRequest, cpu, wall time.Duration) (*arenav1.ActResponse, Usage, error)
	// MeasuresCPU reports whether the bot's CPU time can be read (a cgroup measures it).
	MeasuresCPU() bool
}

// CPUOpener is a Player whose Start can be charged like a move under the CPU clock: its CPU
// time against cpu, its own time against wall; a Start the machine stalls returns an error
// wrapping ErrStalled.
type CPUOpener interface {
	OpenCPU(ctx context.Context, req *arenav1.StartRequest, cpu, wall time.Duration) (Conn, error)
}

// LaneConn is a Conn whose moves can be sent before any answer is read (the host's fast lane,
// docs/protocol.md): the runner posts the request of every such seat that acts in a step, then
// reads their answers as they come, all on its own goroutine.
type LaneConn interface {
	// OnLane reports whether the seat's moves travel on the lane (else Act and ActCPU).
	OnLane() bool
	// Post sends req and starts the move's clock: limit is its wall time, or under the CPU
	// clock (byCPU) its CPU budget with wallCap its cap on its own time, as ActCPU's.
	Post(req *arenav1.ActRequest, limit, wallCap time.Duration, byCPU bool) Posted
}

// Posted is a move sent on a lane.
type Posted interface {
	// Gather waits for the answers of every move in ps (this one among them; all posted on
	// LaneConns of one kind), each finished by its own clock as its answer is read.
	Gather(ps []Posted)
	// Result is the move's outcome once gathered, as Act's (or ActCPU's) would be; Usage.Wall
	// runs from the post to the answer.
	Result() (*arenav1.ActResponse, Usage, error)
}

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
	// StartDeadline bounds each seat's Start (default StartFactor x Deadline: it scales with
	// the move budget); under the CPU clock it is Start's CPU budget and its own time is
	// capped at WallFactor x it, as a move's. EndDeadline bounds End (default
	// DefaultEndDeadline). The process start-up has its own timeout.
	StartDeadline time.Duration
	EndDeadline   time.Duration
	Recorder      Recorder
	// TailLines of stderr quoted in crash faults (default 5).
	TailLines int
	// MeasureMoves reads each bot's CPU time and memory around every move (two small reads
	// per move; for a process holding several seats at once the readings overlap).
	MeasureMoves bool
	// Clock is what a move's time is (default ClockWall). Under ClockCPU, Deadline is each
	// move's CPU budget and every seat whose connection measures CPU (CPUConn) is charged its
	// bot's CPU time; other seats (bots in the host's process) keep wall time. Every move's
	// CPU and wall time are then recorded whatever MeasureMoves says (memory only with it).
	Clock ClockMode
	// WallFactor is the CPU clock's wall-time cap as a multiple of a move's limit (default
	// DefaultWallFactor).
	WallFactor float64
	// Bank is each seat's overage bank (0: none): a move may run past its budget by what is
	// left of the bank, which then shrinks by the overrun (Kaggle's remainingOverageTime).
	Bank time.Duration
}

// StartFactor is Start's default allowance as a multiple of the move budget.
const StartFactor = 3

// Defaults for Options.
const (
	// DefaultStartDeadline is Start's allowance at the default move budget of 1 s.
	DefaultStartDeadline = StartFactor * time.Second
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
	CPU time.Duration `json:"cpu_ns,omitempty"`
	// Wall is the moves' total wall time (Total is what they were charged).
	Wall time.Duration `json:"wall_ns,omitempty"`
	// BankLeft is what remained of the overage bank at the end (when there was one).
	BankLeft   time.Duration `json:"bank_left_ns,omitempty"`
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
	// stalled is set when the machine stalled this seat's Start or move: the match is void.
	stalled   error
	clockLeft time.Duration
	// clockAll is the game's whole clock (the auction's chess clock), for the timeout's text.
	clockAll time.Duration
	bankLeft time.Duration
	// share is how many seats of this seat's process act in the current step: their moves
	// overlap on one cgroup, so each is charged its reading divided by share.
	share int
	req   arenav1.ActRequest
	stats SeatStats
}

// Run plays one match to the end. Only engine bugs and cancellation are errors.
func Run(ctx context.Context, spec game.Spec, cfg game.Config, players []Player, opt Options) (*Result, error) {
	if opt.Deadline <= 0 {
		opt.Deadline = time.Second
	}
	if opt.StartDeadline <= 0 {
		opt.StartDeadline = StartFactor * opt.Deadline
	}
	if opt.EndDeadline <= 0 {
		opt.EndDeadline = DefaultEndDeadline
	}
	if opt.TailLines <= 0 {
		opt.TailLines = 5
	}
	if opt.Clock == "" {
		opt.Clock = ClockWall
	}
	if opt.WallFactor < 1 {
		opt.WallFactor = DefaultWallFactor
	}
	opt.Bank = max(opt.Bank, 0)
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
		st := &seatState{player: players[s.Player], clockLeft: clock, clockAll: clock, bankLeft: opt.Bank, share: 1}
		st.req.MatchId, st.req.Seat, st.req.ClockMode = opt.MatchID, int32(i), opt.Clock.Proto()
		sreqs[i] = &arenav1.StartRequest{MatchId: opt.MatchID, Seat: int32(i), Game: spec.Name, Players: names,
			DeadlineMs: opt.Deadline.Milliseconds(), ClockMs: clockMs, ClockMode: opt.Clock.Proto(),
			BankMs: opt.Bank.Milliseconds(), WallCapMs: opt.wallCap(opt.Deadline + opt.Bank).Milliseconds()}
		eng.Setup(i, sreqs[i])
		seats[i] = st
	}
	// Seats open at once: a slow Start costs the match one Start deadline, not one per seat.
	var wg sync.WaitGroup
	for i, st := range seats {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.open(ctx, sreqs[i], opt)
		}()
	}
	wg.Wait()
	if err := stalled(seats, opt.MatchID); err != nil {
		closeAll(eng, seats, opt)
		return nil, err
	}

	var answers []game.Answer
	steps := 0
	// Reused every step: the hot loop allocates little of its own.
	var done []time.Time
	var lane []int
	var posted []Posted
	var moves []move
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
		answers, done, moves = answers[:0], done[:0], moves[:0]
		for range pending {
			answers, done, moves = append(answers, game.Answer{}), append(done, time.Time{}), append(moves, move{})
		}
		// Engines are not safe for concurrent use: observe every seat first, then ask them all
		// at once, the last one from this goroutine.
		for _, s := range pending {
			eng.Observe(s, &seats[s].req)
		}
		if opt.Clock == ClockCPU {
			shareSeats(seatList, seats, pending)
		}
		// Seats on a lane get their requests first, all of them before any answer is read;
		// the others are asked each from a goroutine of its own (the last from this one when
		// no lane is read here), seats in this process inline.
		lane, posted = lane[:0], posted[:0]
		for i, s := range pending {
			if p := seats[s].post(s, int64(steps), opt, &answers[i], &moves[i]); p != nil {
				lane, posted = append(lane, i), append(posted, p)
			}
		}
		last := len(pending) - 1
		for i, s := range pending {
			switch {
			case slices.Contains(lane, i):
			case seats[s].inline || (i == last && len(lane) == 0):
				send(spec.Name, seats[s], s, int64(steps), opt, &answers[i], &done[i])
			default:
				wg.Add(1)
				go func() {
					defer wg.Done()
					send(spec.Name, seats[s], s, int64(steps), opt, &answers[i], &done[i])
				}()
			}
		}
		if len(posted) > 0 {
			posted[0].Gather(posted)
			for k, i := range lane {
				resp, used, err := posted[k].Result()
				s := pending[i]
				if m := moves[i].meter; m != nil && err == nil {
					var cpu1 time.Duration
					cpu1, answers[i].MemoryBytes = m.Snapshot()
					used.CPU = cpu1 - moves[i].cpu0
				}
				done[i] = moves[i].t0.Add(used.Wall)
				seats[s].finish(spec.Name, int64(steps), opt, &answers[i], &moves[i], resp, used, err)
			}
		}
		wg.Wait()
		arrival(answers, done)
		if err := stalled(seats, opt.MatchID); err != nil {
			closeAll(eng, seats, opt)
			return nil, err
		}
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

// stalled is the error voiding the match when the machine stalled a seat, else nil.
func stalled(seats []*seatState, matchID string) error {
	for i, st := range seats {
		if st.stalled != nil {
			return fmt.Errorf("match %s void, charged to no bot: seat %d: %w", matchID, i, st.stalled)
		}
	}
	return nil
}

// open starts the seat; a failure becomes the fault charged at the seat's first move, under
// the game's rule (a Start overrun is a timeout like a move's).
func (st *seatState) open(ctx context.Context, req *arenav1.StartRequest, opt Options) {
	if !st.player.Alive() {
		st.openFault = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("bot is not running: "+st.player.Why(), bounded.Detail)}
		return
	}
	deadline := opt.StartDeadline
	var c Conn
	var err error
	if o, ok := st.player.(CPUOpener); ok && opt.Clock == ClockCPU {
		c, err = o.OpenCPU(ctx, req, deadline, opt.wallCap(deadline))
	} else {
		c, err = st.player.Open(ctx, req, deadline)
	}
	switch {
	case errors.Is(err, ErrStalled):
		st.stalled = err
	case errors.Is(err, ErrTimeout):
		detail := fmt.Sprintf("did not open its seat within %v (Start)", deadline)
		if why, ok := strings.CutPrefix(err.Error(), ErrTimeout.Error()+": "); ok {
			detail = "did not open its seat (Start): " + why
		}
		st.openFault = &game.Fault{Kind: game.FaultTimeout, Detail: bounded.Text(detail, bounded.Detail)}
	case err != nil:
		st.openFault = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("could not open its seat: "+err.Error(), bounded.Detail)}
	default:
		st.conn = c
		// A bot in this process answers at once: asking it from a goroutine only costs.
		in, ok := c.(interface{ Inline() bool })
		st.inline = ok && in.Inline()
	}
}

// shareSeats counts, for every pending seat, the pending seats of its own process.
func shareSeats(seatList []game.Seat, seats []*seatState, pending []int) {
	for _, s := range pending {
		n := 0
		for _, o := range pending {
			if seatList[o].Player == seatList[s].Player {
				n++
			}
		}
		seats[s].share = n
	}
}

// wallCap is the wall time a move with this limit may take.
func (o Options) wallCap(limit time.Duration) time.Duration {
	if o.Clock != ClockCPU {
		return limit
	}
	return time.Duration(float64(limit) * o.WallFactor)
}

// move is one seat's move of a step: its limits, as send and post work them out.
type move struct {
	budget, limit, wallCap  time.Duration
	clocked, byCPU, byClock bool
	cpuConn                 CPUConn
	// t0 is when a posted move was sent; meter and cpu0 measure it (MeasureMoves, wall clock).
	t0    time.Time
	meter Measurer
	cpu0  time.Duration
}

// dead fills out for a seat that cannot be asked; false when it can.
func (st *seatState) dead(seat int, out *game.Answer) bool {
	out.Seat = seat
	if st.conn != nil && st.player.Alive() {
		return false
	}
	f := st.openFault
	if f == nil || st.conn != nil {
		f = &game.Fault{Kind: game.FaultCrash, Detail: bounded.Text("bot is not running: "+st.player.Why(), bounded.Detail)}
	}
	out.Fault = f
	return true
}

// begin works out the move's limits and fills the seat's request with them.
func (st *seatState) begin(step int64, opt Options) move {
	// The move's limit: its budget plus what is left of the bank, and never past the clock.
	var mv move
	mv.budget = opt.Deadline
	mv.limit = mv.budget + st.bankLeft
	mv.clocked = st.clockLeft > 0
	if mv.clocked && st.clockLeft < mv.limit {
		mv.limit = st.clockLeft
	}
	mv.cpuConn, _ = st.conn.(CPUConn)
	mv.byCPU = opt.Clock == ClockCPU && mv.cpuConn != nil && mv.cpuConn.MeasuresCPU()
	req := &st.req
	req.Step = step
	req.DeadlineMs = min(mv.budget, mv.limit).Milliseconds()
	req.BudgetUs = min(mv.budget, mv.limit).Microseconds()
	req.BankRemainingUs = st.bankLeft.Microseconds()
	// A game's own clock (the auction's chess clock) is charged wall time under either clock
	// mode (see chessClock): under the CPU clock it also caps the move's wall time.
	mv.wallCap = opt.wallCap(mv.limit)
	mv.byClock = mv.clocked && mv.limit < mv.budget+st.bankLeft
	if mv.clocked && st.clockLeft < mv.wallCap {
		mv.wallCap, mv.byClock = st.clockLeft, true
	}
	req.WallCapMs = mv.wallCap.Milliseconds()
	if mv.clocked {
		req.ClockRemainingMs = st.clockLeft.Milliseconds()
	}
	return mv
}

// share is how many seats' limits the seat's process may use at once (see seatState.share).
func (st *seatState) shareOf() time.Duration { return time.Duration(max(st.share, 1)) }

// post sends the seat's request on its lane and returns the posted move; nil when the seat is
// not on a lane (send asks it) or cannot be asked (out is filled then).
func (st *seatState) post(seat int, step int64, opt Options, out *game.Answer, mv *move) Posted {
	lc, ok := st.conn.(LaneConn)
	if !ok || st.dead(seat, out) || !lc.OnLane() {
		return nil
	}
	*mv = st.begin(step, opt)
	if m, ok := st.conn.(Measurer); ok && opt.MeasureMoves && !mv.byCPU {
		mv.meter = m
		mv.cpu0, _ = m.Snapshot()
	}
	mv.t0 = time.Now()
	if mv.byCPU {
		// Several seats of one process acting at once share its cgroup (see send).
		return lc.Post(&st.req, mv.limit*st.shareOf(), mv.wallCap, true)
	}
	return lc.Post(&st.req, mv.limit, mv.wallCap, false)
}

// send asks one seat and fills out; it touches only this seat's state.
func send(gameName string, st *seatState, seat int, step int64, opt Options, out *game.Answer, done *time.Time) {
	defer func() { *done = time.Now() }()
	if st.dead(seat, out) {
		return
	}
	mv := st.begin(step, opt)
	var resp *arenav1.ActResponse
	var err error
	var used Usage
	if mv.byCPU {
		// Several seats of one process acting at once share its cgroup: the process may use
		// their limits together.
		resp, used, err = mv.cpuConn.ActCPU(&st.req, mv.limit*st.shareOf(), mv.wallCap)
	} else {
		var meter Measurer
		var cpu0 time.Duration
		if opt.MeasureMoves {
			if m, ok := st.conn.(Measurer); ok {
				meter = m
				cpu0, _ = m.Snapshot()
			}
		}
		t0 := time.Now()
		resp, err = st.conn.Act(&st.req, mv.limit)
		used.Wall = time.Since(t0)
		if meter != nil && err == nil {
			var cpu1 time.Duration
			cpu1, out.MemoryBytes = meter.Snapshot()
			used.CPU = cpu1 - cpu0
		}
	}
	st.finish(gameName, step, opt, out, &mv, resp, used, err)
}

// finish charges a move that was asked (by send, or posted and gathered) and fills out.
func (st *seatState) finish(gameName string, step int64, opt Options, out *game.Answer, mv *move, resp *arenav1.ActResponse, used Usage, err error) {
	if mv.byCPU {
		used.CPU /= st.shareOf()
		// Memory is a file read of its own (about 20 us against 1 us for the CPU counter):
		// only when moves are measured.
		if m, ok := st.conn.(Measurer); ok && opt.MeasureMoves {
			_, out.MemoryBytes = m.Snapshot()
		}
	}
	if errors.Is(err, ErrStalled) {
		st.stalled = err
		return
	}
	budget, limit := mv.budget, mv.limit
	charged := used.Wall
	if mv.byCPU {
		charged = used.CPU
	}
	out.CPU, out.Wall = used.CPU, used.Wall
	st.stats.CPU += out.CPU
	st.stats.MaxCPU = max(st.stats.MaxCPU, out.CPU)
	st.stats.PeakMemory = max(st.stats.PeakMemory, out.MemoryBytes)
	out.Elapsed = charged
	if mv.clocked {
		out.Elapsed = chessClock(used)
	}
	st.stats.Moves++
	st.stats.Total += charged
	st.stats.Wall += used.Wall
	st.stats.Max = max(st.stats.Max, charged)
	if mv.clocked {
		st.clockLeft -= out.Elapsed
	}
	if over := charged - budget; over > 0 && st.bankLeft > 0 {
		st.bankLeft = max(st.bankLeft-over, 0)
	}
	st.stats.BankLeft = st.bankLeft
	// Under the CPU clock an answer that arrived after its limit was spent (between two of
	// the host's readings) is late, as a timed-out one is; wall time is the host's timer's.
	late := mv.byCPU && err == nil && charged > limit
	switch {
	case errors.Is(err, ErrTimeout) || late:
		out.Action, out.Fault = nil, &game.Fault{Kind: game.FaultTimeout, Detail: timeoutText(opt, mv.byCPU, mv.byClock, used, budget, limit, st)}
	case err != nil:
		out.Fault = &game.Fault{Kind: game.FaultCrash, Detail: crashText(st.player, err, opt.TailLines)}
	default:
		out.Action, out.Fault = game.Judge(gameName, step, resp)
		if out.Fault == nil && mv.clocked && st.clockLeft <= 0 {
			out.Action, out.Fault = nil, &game.Fault{Kind: game.FaultTimeout, Detail: clockOutText(used, st)}
		}
	}
}

// arrival ranks a step's answers by when each came (Answer.Order), the earlier first, seats in
// their pending order on a tie.
func arrival(answers []game.Answer, done []time.Time) {
	for i := range answers {
		rank := 0
		for j := range answers {
			if done[j].Before(done[i]) || (done[j].Equal(done[i]) && j < i) {
				rank++
			}
		}
		answers[i].Order = rank
	}
}

// chessClock is what a move costs a game's own clock (the auction's chess clock): its wall
// time under either clock mode, as the games' original servers charged it and their rules say,
// so sleeping or blocking in a move costs the clock too; the move's budget is what the clock
// mode charges (docs/rules/auction.md).
func chessClock(used Usage) time.Duration { return used.Wall }

// clockOutText says that a seat's game clock ran out, with the figures.
func clockOutText(used Usage, st *seatState) string {
	return fmt.Sprintf("its clock ran out (the game's chess clock of %v, charged wall time; this move took %v of it)",
		st.clockAll, used.Wall.Round(time.Millisecond))
}

// timeoutText says which limit a move overran and, under the CPU clock, with what figures.
// byClock says the game's clock set the move's limit or its wall-time cap.
func timeoutText(opt Options, byCPU, byClock bool, used Usage, budget, limit time.Duration, st *seatState) string {
	switch {
	case byClock && st.clockLeft <= 0:
		return clockOutText(used, st)
	case byCPU && !used.OverCPU && used.CPU <= limit:
		return fmt.Sprintf("timeout (%s): no answer within the wall-time cap of %v counting its own time only, wall time minus its wait for a CPU (%s; budget %v)",
			CauseWait, opt.wallCap(limit), used.Figures(), budget)
	case byCPU:
		what := fmt.Sprintf("timeout (%s): used %v of CPU time, over its budget of %v", CauseCPU, roundMs(used.CPU), budget)
		if opt.Bank > 0 {
			what += " and its overage bank"
		}
		return what + " (counted from its previous answer, pondering included; " + used.Figures() + ")"
	case opt.Bank > 0:
		return fmt.Sprintf("no answer within %v (its budget of %v and its overage bank)", limit, budget)
	}
	return fmt.Sprintf("no answer within %v", limit)
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
