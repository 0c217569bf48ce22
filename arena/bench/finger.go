package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/finger"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	fingerbots "github.com/botarena/arena/bots/finger"
)

// The finger bots: the house random player is the trivial one (it answers at once).
const (
	GoFingerBot     = "bots/finger/cmd/random"
	PythonFingerBot = "examples/python/finger/bot.py"
)

// PlayFinger plays one finger match of the given number of games and returns its result.
func PlayFinger(ctx context.Context, a, b match.Player, games int) (*match.Result, error) {
	id := fmt.Sprintf("bench-finger-%d", matchSeq.Add(1))
	cfg := game.Config{Seed: uint64(matchSeq.Load()), Players: []game.Player{{Name: "a"}, {Name: "b"}},
		Params: map[string]string{"games": fmt.Sprint(games)}}
	res, err := match.Run(ctx, finger.Spec, cfg, []match.Player{a, b}, match.Options{MatchID: id, Deadline: 5 * time.Second, Clock: match.ClockCPU})
	if err != nil {
		return nil, err
	}
	if n := len(res.Outcome.Faults); n > 0 {
		f := res.Outcome.Faults[0]
		return nil, fmt.Errorf("match %s: %d faults, first: %s %s %s", id, n, f.Kind, f.Where, f.Detail)
	}
	return res, nil
}

func (r *runner) fingerMatches(ctx context.Context) error {
	games := r.sz.fingerGames
	name := func(who string) string { return fmt.Sprintf("finger %d games, %s", games, who) }
	// peerRound is the peer's time per round, measured beside the last series.
	var peerRound time.Duration
	rate := func(who string, n int, took time.Duration, steps int, peer *peerFigures) {
		note := fmt.Sprintf("%d matches, %d moves each, %s per move", n, steps, fmtDur(took/time.Duration(max(n*steps, 1))))
		if peer != nil && peerRound > 0 {
			note += fmt.Sprintf("; x peer: against a peer round (both seats) per step, %s beside it", fmtDur(peerRound))
		}
		r.add(Figure{Section: "matches", Name: name(who), Value: float64(n) / took.Seconds(), Unit: "/s", Note: note})
		if peer != nil && peerRound > 0 {
			r.vsPeer(peer, peerRound*time.Duration(steps))
		}
	}
	series := func(a, b match.Player, n int, peer *peerFigures) (time.Duration, int, error) {
		var took time.Duration
		steps := 0
		play := func() error {
			t0 := time.Now()
			for range n {
				res, err := PlayFinger(ctx, a, b, games)
				if err != nil {
					return err
				}
				steps = res.Steps
			}
			took = time.Since(t0)
			return nil
		}
		var err error
		if peerRound = 0; peer != nil {
			peerRound, err = peer.beside(r.sz.rounds, play)
		} else {
			err = play()
		}
		return took, steps, err
	}
	procs := func(who, rel string, peer *peerFigures) error {
		if _, err := os.Stat(filepath.Join(r.l.root, rel)); err != nil {
			r.missing("matches", name(who), rel+" does not exist yet")
			return nil
		}
		bs, err := r.l.launchN(ctx, rel, 2)
		if err != nil {
			r.missing("matches", name(who), firstLine(err.Error()))
			return nil
		}
		defer players.CloseAll(bs)
		took, steps, err := series(players.Process{Bot: bs[0]}, players.Process{Bot: bs[1]}, 1, peer)
		if err != nil {
			return err
		}
		rate(who, 1, took, steps, peer)
		return nil
	}
	if err := procs("Go random vs Go random", GoFingerBot, r.goPeer); err != nil {
		return err
	}
	if err := procs("Python vs Python", PythonFingerBot, r.pyPeer); err != nil {
		return err
	}
	a := players.NewInProcess("random", fingerbots.Random())
	b := players.NewInProcess("random", fingerbots.Random())
	took, steps, err := series(a, b, r.sz.fingerIn, r.goPeer)
	if err != nil {
		return err
	}
	rate("in-process house bots (ceiling)", r.sz.fingerIn, took, steps, r.goPeer)
	return nil
}
