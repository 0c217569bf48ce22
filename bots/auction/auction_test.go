package auctionbots

import (
	"context"
	"fmt"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/auction"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/sdk"
)

// play runs an auction between Go bots in-process, through the real match runner.
func play(t *testing.T, seed uint64, params map[string]string, bots ...sdk.Bot) game.Outcome {
	t.Helper()
	cfg := game.Config{Seed: seed, Params: params}
	for i, b := range bots {
		cfg.Players = append(cfg.Players, game.Player{Name: fmt.Sprintf("%s-%d", b.Name, i)})
	}
	res, err := players.Play(context.Background(), auction.Spec, cfg, bots...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome
}

// wins counts, over many auctions, how often each seat won.
func wins(t *testing.T, n int, params map[string]string, mk func(seed uint64) []sdk.Bot) []int {
	t.Helper()
	var w []int
	for seed := range uint64(n) {
		bots := mk(seed)
		if w == nil {
			w = make([]int, len(bots))
		}
		out := play(t, seed, params, bots...)
		if len(out.Faults) != 0 {
			t.Fatalf("seed %d: faults %+v", seed, out.Faults)
		}
		for s, p := range out.Players {
			if p.Result == game.ResultWin {
				w[s]++
			}
		}
	}
	return w
}

func TestSampleBidsBelowItsMoney(t *testing.T) {
	t.Parallel()
	w := wins(t, 50, nil, func(seed uint64) []sdk.Bot { return []sdk.Bot{SampleSeeded(seed), SampleSeeded(seed + 1000)} })
	if w[0]+w[1] < 45 {
		t.Fatalf("samples won %v of 50: too many draws", w)
	}
}

func TestCollectorBeatsSampleClearly(t *testing.T) {
	t.Parallel()
	const n = 300
	// Both seat orders, so that neither seat's place matters.
	a := wins(t, n/2, nil, func(seed uint64) []sdk.Bot { return []sdk.Bot{Collector(), SampleSeeded(seed)} })
	b := wins(t, n/2, nil, func(seed uint64) []sdk.Bot { return []sdk.Bot{SampleSeeded(seed), Collector()} })
	got := a[0] + b[1]
	t.Logf("collector won %d of %d against sample", got, n)
	if got < n*95/100 {
		t.Fatalf("collector won only %d of %d", got, n)
	}
}

func TestCollectorBeatsFourSamples(t *testing.T) {
	t.Parallel()
	const n = 200
	w := wins(t, n, nil, func(seed uint64) []sdk.Bot {
		return []sdk.Bot{SampleSeeded(seed), SampleSeeded(seed + 1e6), Collector(), SampleSeeded(seed + 2e6), SampleSeeded(seed + 3e6)}
	})
	t.Logf("wins by seat (collector is seat 2): %v", w)
	// A fair share would be 1/5; it must win nine in ten.
	if w[2] < n*9/10 {
		t.Fatalf("collector won only %d of %d five-player auctions", w[2], n)
	}
}

func TestCollectorBeatsSampleWithOtherParams(t *testing.T) {
	t.Parallel()
	const n = 100
	w := wins(t, n, map[string]string{"artists": "6", "required": "5"}, func(seed uint64) []sdk.Bot {
		return []sdk.Bot{Collector(), SampleSeeded(seed), SampleSeeded(seed + 1e6)}
	})
	t.Logf("k=6 n=5, three players: %v", w)
	if w[0] < n*9/10 {
		t.Fatalf("collector won only %d of %d", w[0], n)
	}
}
