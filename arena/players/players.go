package players

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

// Process is a bot process as a match.Player.
type Process struct {
	Bot *host.Bot
	// Since is the bot's log total when this match began (Bot.Log.Total()): fault reports
	// quote only what the bot wrote after it. Zero for a process started for this match.
	Since int64
}

// Label names the bot.
func (p Process) Label() string { return p.Bot.Name }

// Alive reports whether the process can still be asked.
func (p Process) Alive() bool { return p.Bot.Alive() }

// Stop kills the process (the runner calls it when the match is cancelled).
func (p Process) Stop(why string) { p.Bot.Kill(why) }

// BotName is what the bot calls itself (its Describe name).
func (p Process) BotName() string { return p.Bot.Desc.GetName() }

// Why says why the process is gone.
func (p Process) Why() string { return p.Bot.Why() }

// Tail returns the last n stderr lines, naming the bot's own files as its author does.
func (p Process) Tail(n int) []string {
	p.Bot.FlushLog()
	lines := p.Bot.Log.TailSince(p.Since, n)
	for i, l := range lines {
		lines[i] = p.Bot.OwnFiles(l)
	}
	return lines
}

// StepLog is the last n stderr lines as text, with a heading where the step they were
// written in changes (host.FormatSteps), naming the bot's own files as Tail does.
func (p Process) StepLog(n int) string {
	p.Bot.FlushLog()
	lines := p.Bot.Log.StepTailSince(p.Since, n)
	for i := range lines {
		lines[i].Text = p.Bot.OwnFiles(lines[i].Text)
	}
	return host.FormatSteps(lines)
}

// Open starts a seat.
func (p Process) Open(ctx context.Context, req *arenav1.StartRequest, timeout time.Duration) (match.Conn, error) {
	s, err := p.Bot.Open(ctx, req, timeout)
	if err != nil {
		return nil, err
	}
	return processSeat{s: s, bot: p.Bot}, nil
}

// OpenCPU starts a seat under the CPU clock: Start is charged like a move.
func (p Process) OpenCPU(ctx context.Context, req *arenav1.StartRequest, cpu, wall time.Duration) (match.Conn, error) {
	s, err := p.Bot.OpenCPU(ctx, req, cpu, wall)
	if err != nil {
		return nil, err
	}
	return processSeat{s: s, bot: p.Bot}, nil
}

// causes maps the host's causes of a stopped move to the runner's.
var causes = map[host.Cause]match.Cause{host.CauseCPU: match.CauseCPU, host.CauseWait: match.CauseWait, host.CauseMachine: match.CauseMachine}

// processSeat is a host seat as a match.Conn (and match.CPUConn): the host's errors are the
// runner's (game.ErrTimeout, game.ErrDead), so they pass as they are.
type processSeat struct {
	s   *host.Seat
	bot *host.Bot
}

var _ match.CPUConn = processSeat{}

func (c processSeat) Act(req *arenav1.ActRequest, timeout time.Duration) (*arenav1.ActResponse, error) {
	c.bot.Log.Mark(req.GetStep())
	resp, err := c.s.Act(req, timeout)
	return c.ownFiles(resp), err
}

// ActCPU charges the move its bot's CPU time (the runner's CPU clock).
func (c processSeat) ActCPU(req *arenav1.ActRequest, cpu, wall time.Duration) (*arenav1.ActResponse, match.Usage, error) {
	c.bot.Log.Mark(req.GetStep())
	resp, u, err := c.s.ActCPU(req, cpu, wall)
	return c.ownFiles(resp), usage(u), err
}

// ownFiles names the bot's own files in an error answer's traceback as its author does
// (host.Bot.OwnFiles), before the runner records it: only an answer that is an error.
func (c processSeat) ownFiles(resp *arenav1.ActResponse) *arenav1.ActResponse {
	if e := resp.GetError(); e != nil {
		e.Message, e.Traceback = c.bot.OwnFiles(e.Message), c.bot.OwnFiles(e.Traceback)
	}
	return resp
}

var _ match.LaneConn = processSeat{}

// OnLane reports whether the seat's moves travel on the bot's fast lane.
func (c processSeat) OnLane() bool { return c.s.OnLane() }

// Post sends one move on the fast lane (see match.LaneConn).
func (c processSeat) Post(req *arenav1.ActRequest, limit, wallCap time.Duration, byCPU bool) match.Posted {
	c.bot.Log.Mark(req.GetStep())
	return lanePosted{m: c.s.Post(req, limit, wallCap, byCPU), c: c}
}

// lanePosted is a host move as a match.Posted.
type lanePosted struct {
	m *host.Move
	c processSeat
}

// Gather reads the answers of every move of ps at once (host.Await).
func (p lanePosted) Gather(ps []match.Posted) {
	moves := make([]*host.Move, 0, len(ps))
	for _, q := range ps {
		if lp, ok := q.(lanePosted); ok {
			moves = append(moves, lp.m)
		}
	}
	host.Await(moves...)
}

// Result is the move's outcome, as ActCPU's.
func (p lanePosted) Result() (*arenav1.ActResponse, match.Usage, error) {
	resp, u, err := p.m.Result()
	return p.c.ownFiles(resp), usage(u), err
}

func usage(u host.MoveUsage) match.Usage {
	return match.Usage{CPU: u.CPU, Wall: u.Wall, RunQueue: u.RunQueue, Own: u.Own, OverCPU: u.OverCPU, Cause: causes[u.Cause], Parts: u.Parts}
}

// MeasuresCPU reports whether the bot's cgroup counts its CPU time.
func (c processSeat) MeasuresCPU() bool { return c.s.MeasuresCPU() }

// Snapshot lets the runner measure moves.
func (c processSeat) Snapshot() (time.Duration, int64) { return c.s.Snapshot() }

func (c processSeat) End(req *arenav1.EndRequest, timeout time.Duration) error {
	return c.s.End(req, timeout)
}

// InProcess runs a Go SDK bot inside the host: no process, no plugin, no deadline enforcement
// (a house bot is trusted code).
type InProcess struct {
	Name string
	H    *sdk.Handler
}

// NewInProcess wraps b.
func NewInProcess(name string, b sdk.Bot) *InProcess {
	return &InProcess{Name: name, H: sdk.NewHandler(b)}
}

// Label names the bot.
func (p *InProcess) Label() string { return p.Name }

// Alive is always true.
func (p *InProcess) Alive() bool { return true }

// Why is empty.
func (p *InProcess) Why() string { return "" }

// Tail is empty.
func (p *InProcess) Tail(int) []string { return nil }

// Open starts a seat.
func (p *InProcess) Open(ctx context.Context, req *arenav1.StartRequest, _ time.Duration) (match.Conn, error) {
	resp, err := p.H.Start(ctx, req)
	if err != nil {
		return nil, err
	}
	if resp.GetError() != "" {
		return nil, errors.New(resp.GetError())
	}
	return &inSeat{h: p.H}, nil
}

type inSeat struct {
	h    *sdk.Handler
	resp arenav1.ActResponse
}

func (s *inSeat) Act(req *arenav1.ActRequest, _ time.Duration) (*arenav1.ActResponse, error) {
	s.h.ActInto(req, &s.resp)
	return &s.resp, nil
}

// Inline tells the runner to ask this seat from its own goroutine: it answers at once.
func (s *inSeat) Inline() bool { return true }

func (s *inSeat) End(req *arenav1.EndRequest, _ time.Duration) error {
	_, err := s.h.End(context.Background(), req)
	return err
}

// Play runs one match between Go bots inside this process, through the real runner (no
// processes, no plugin); cfg.Players[i] is played by bots[i]. House-bot tests use it.
func Play(ctx context.Context, spec game.Spec, cfg game.Config, bots ...sdk.Bot) (*match.Result, error) {
	if len(bots) != len(cfg.Players) {
		return nil, fmt.Errorf("players.Play: %d bots for %d players", len(bots), len(cfg.Players))
	}
	ps := make([]match.Player, len(bots))
	for i, b := range bots {
		ps[i] = NewInProcess(cfg.Players[i].Name, b)
	}
	return match.Run(ctx, spec, cfg, ps, match.Options{MatchID: "in-process-" + spec.Name})
}
