package bench

import (
	"cmp"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/host"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

var matchSeq atomic.Int64

// elapsedRecorder keeps the round trip of every answer of a match.
type elapsedRecorder struct{ s Sample }

func (r *elapsedRecorder) Step(_ int, answers []game.Answer) {
	for _, a := range answers {
		// Wall time: under the CPU clock Elapsed is what the move was charged.
		r.s = append(r.s, cmp.Or(a.Wall, a.Elapsed))
	}
}

// PlayDynamite plays one dynamite match of the given rounds between two players and returns
// its result and the round trip of every move.
func PlayDynamite(ctx context.Context, a, b match.Player, rounds int) (*match.Result, Sample, error) {
	rec := &elapsedRecorder{s: make(Sample, 0, 2*rounds)}
	id := fmt.Sprintf("bench-%d", matchSeq.Add(1))
	res, err := match.Run(ctx, dynamite.Spec, dynamiteConfig(rounds), []match.Player{a, b},
		match.Options{MatchID: id, Deadline: 5 * time.Second, Recorder: rec, Clock: match.ClockCPU})
	if err != nil {
		return nil, nil, err
	}
	if n := len(res.Outcome.Faults); n > 0 {
		f := res.Outcome.Faults[0]
		return nil, nil, fmt.Errorf("match %s: %d faults, first: %s %s %s", id, n, f.Kind, f.Where, f.Detail)
	}
	if res.Steps != rounds {
		return nil, nil, fmt.Errorf("match %s: %d rounds played, want %d", id, res.Steps, rounds)
	}
	return res, rec.s, nil
}

// InProcessPair is the ceiling: two house bots inside the host, no process, no plugin.
func InProcessPair() (match.Player, match.Player) {
	return players.NewInProcess("paper", dynamitebots.Paper()), players.NewInProcess("scissors", dynamitebots.Scissors())
}

// MatchRate is the outcome of a series of matches.
type MatchRate struct {
	Matches  int
	Elapsed  time.Duration
	PerMatch Sample
	Moves    Sample
}

// PerSecond is matches per second.
func (r MatchRate) PerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Matches) / r.Elapsed.Seconds()
}

// playSeries plays n matches in a row between a and b.
func playSeries(ctx context.Context, a, b match.Player, n, rounds int) (MatchRate, error) {
	var r MatchRate
	t0 := time.Now()
	for range n {
		res, moves, err := PlayDynamite(ctx, a, b, rounds)
		if err != nil {
			return r, err
		}
		r.Matches++
		r.PerMatch = append(r.PerMatch, res.Duration)
		r.Moves = append(r.Moves, moves...)
	}
	r.Elapsed = time.Since(t0)
	return r, nil
}

// Scale plays total matches split over jobs workers running concurrently; each worker plays
// between its own pair of players made by pair (bot processes are not shared between workers,
// as in a tournament where one pairing runs on one worker).
func Scale(ctx context.Context, jobs, total, rounds int, pair func() (match.Player, match.Player, func(), error)) (MatchRate, error) {
	type worker struct {
		a, b  match.Player
		close func()
	}
	ws := make([]worker, jobs)
	for i := range ws {
		a, b, cl, err := pair()
		if err != nil {
			for _, w := range ws[:i] {
				w.close()
			}
			return MatchRate{}, err
		}
		ws[i] = worker{a, b, cl}
	}
	defer func() {
		for _, w := range ws {
			w.close()
		}
	}()
	var next atomic.Int64
	errs := make([]error, jobs)
	var wg sync.WaitGroup
	t0 := time.Now()
	for i := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(total) {
				if _, _, err := PlayDynamite(ctx, ws[i].a, ws[i].b, rounds); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	r := MatchRate{Matches: total, Elapsed: time.Since(t0)}
	for _, err := range errs {
		if err != nil {
			return r, err
		}
	}
	return r, nil
}

// processPair returns a pair maker that launches two bots of the same program.
func (l *launcher) processPair(ctx context.Context, rel string) func() (match.Player, match.Player, func(), error) {
	return func() (match.Player, match.Player, func(), error) {
		bs, err := l.launchN(ctx, rel, 2)
		if err != nil {
			return nil, nil, nil, err
		}
		return players.Process{Bot: bs[0]}, players.Process{Bot: bs[1]}, func() { players.CloseAll(bs) }, nil
	}
}

func (l *launcher) launchN(ctx context.Context, rel string, n int) ([]*host.Bot, error) {
	bs := make([]*host.Bot, n)
	for i := range bs {
		b, err := l.launch(ctx, rel)
		if err != nil {
			players.CloseAll(bs)
			return nil, err
		}
		bs[i] = b
	}
	return bs, nil
}

// PayloadSizes plays dynamite in the engine alone and returns proto.Size of seat 0's
// ActRequest at each of the given rounds.
func PayloadSizes(rounds ...int) (map[int]int, error) {
	last := 0
	for _, r := range rounds {
		last = max(last, r)
	}
	eng, err := dynamite.Spec.NewEngine(dynamiteConfig(last))
	if err != nil {
		return nil, err
	}
	want := map[int]bool{}
	for _, r := range rounds {
		want[r] = true
	}
	out := map[int]int{}
	var req arenav1.ActRequest
	// Vary the answers so scores and stakes are realistic, not all zero.
	moves := []arenav1.DynamiteMove{arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK, arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER,
		arenav1.DynamiteMove_DYNAMITE_MOVE_SCISSORS}
	ans := make([]game.Answer, 2)
	for round := 1; !eng.Done(); round++ {
		req.Reset()
		req.MatchId, req.Step, req.DeadlineMs = "bench-payload-0000000000", int64(round), 1000
		eng.Observe(0, &req)
		if want[round] {
			out[round] = sizeOf(&req)
		}
		for s := range ans {
			ans[s] = game.Answer{Seat: s, Order: s, Action: &arenav1.ActResponse{Step: int64(round), Action: &arenav1.ActResponse_Dynamite{
				Dynamite: &arenav1.DynamiteAction{Move: moves[(round*(s+1))%3]}}}}
		}
		if err := eng.Apply(ans); err != nil {
			return nil, err
		}
	}
	return out, nil
}
