package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// rockAnswer is the constant answer of the seat the bench plays itself.
var rockAnswer = &arenav1.ActResponse{Action: &arenav1.ActResponse_Dynamite{
	Dynamite: &arenav1.DynamiteAction{Move: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}

// dynamiteConfig is a match that runs to its round cap: the target cannot be reached.
func dynamiteConfig(rounds int) game.Config {
	return game.Config{Seed: 1, Players: []game.Player{{Name: "a"}, {Name: "b"}},
		Params: map[string]string{"target": "1000000000", "rounds": fmt.Sprint(rounds)}}
}

// Mover plays seat 0 of a dynamite match on one bot process, move by move, with the requests
// the engine builds (a realistic move); seat 1 is played by the bench itself at no cost. A
// finished match is followed by a fresh one on a new seat.
type Mover struct {
	bot   *host.Bot
	seat  *host.Seat
	eng   game.Engine
	req   arenav1.ActRequest
	step  int64
	n     int
	ans   []game.Answer
	match int
	// CPU asks through Seat.ActCPU (the CPU clock) instead of Seat.Act.
	CPU bool
}

// NewMover opens a seat on bot.
func NewMover(ctx context.Context, bot *host.Bot) (*Mover, error) {
	m := &Mover{bot: bot, ans: make([]game.Answer, 2)}
	return m, m.next(ctx)
}

func (m *Mover) next(ctx context.Context) error {
	if m.seat != nil {
		m.seat.End(&arenav1.EndRequest{MatchId: m.req.MatchId, Seat: 0}, time.Second)
	}
	m.match++
	eng, err := dynamite.Spec.NewEngine(dynamiteConfig(2500))
	if err != nil {
		return err
	}
	id := fmt.Sprintf("bench-move-%d", m.match)
	sreq := &arenav1.StartRequest{MatchId: id, Seat: 0, Game: dynamite.Spec.Name, Players: []string{"a", "b"}, DeadlineMs: 1000}
	eng.Setup(0, sreq)
	seat, err := m.bot.Open(ctx, sreq, 10*time.Second)
	if err != nil {
		return fmt.Errorf("bot %s: %w", m.bot.Name, err)
	}
	m.seat, m.eng, m.step = seat, eng, 0
	m.req.Reset()
	m.req.MatchId = id
	return nil
}

// Move asks the bot for one move and returns the round trip of Seat.Act alone.
func (m *Mover) Move(ctx context.Context) (time.Duration, error) {
	if m.eng.Done() {
		if err := m.next(ctx); err != nil {
			return 0, err
		}
	}
	m.step++
	m.eng.Observe(0, &m.req)
	m.req.Step, m.req.DeadlineMs = m.step, 1000
	var resp *arenav1.ActResponse
	var err error
	t0 := time.Now()
	if m.CPU {
		resp, _, err = m.seat.ActCPU(&m.req, 5*time.Second, 15*time.Second)
	} else {
		resp, err = m.seat.Act(&m.req, 5*time.Second)
	}
	el := time.Since(t0)
	if err != nil {
		return 0, fmt.Errorf("bot %s: move %d: %w", m.bot.Name, m.step, err)
	}
	m.ans[0] = game.Answer{Seat: 0, Elapsed: el}
	m.ans[0].Action, m.ans[0].Fault = game.Judge("dynamite", m.step, resp)
	m.ans[1] = game.Answer{Seat: 1, Action: rockAnswer, Order: 1}
	if err := m.eng.Apply(m.ans); err != nil {
		return 0, err
	}
	m.n++
	return el, nil
}

// Close ends the open seat (the bot keeps running).
func (m *Mover) Close() {
	if m.seat != nil {
		m.seat.End(&arenav1.EndRequest{MatchId: m.req.MatchId, Seat: 0}, time.Second)
		m.seat = nil
	}
}

// measureMoves times n moves after a warm-up of n/10.
func measureMoves(ctx context.Context, m *Mover, n int) (Sample, error) {
	for range n/10 + 5 {
		if _, err := m.Move(ctx); err != nil {
			return nil, err
		}
	}
	s := make(Sample, 0, n)
	for range n {
		d, err := m.Move(ctx)
		if err != nil {
			return nil, err
		}
		s = append(s, d)
	}
	return s, nil
}
