package auctionbots

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/auction"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

// play runs one auction in-process: the engine's requests go straight to each bot's
// sdk.Handler, as the host would send them over gRPC. Answers arrive in a random order (drawn
// from seed), as they would race over the wire.
func play(t *testing.T, seed uint64, params map[string]string, bots ...sdk.Bot) game.Outcome {
	t.Helper()
	cfg := game.Config{Seed: seed, Params: params}
	for i, b := range bots {
		cfg.Players = append(cfg.Players, game.Player{Name: fmt.Sprintf("%s-%d", b.Name, i)})
	}
	e, err := auction.Spec.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	hs := make([]*sdk.Handler, len(bots))
	for s, b := range bots {
		hs[s] = sdk.NewHandler(b)
		req := &arenav1.StartRequest{MatchId: "m", Seat: int32(s), Game: "auction", DeadlineMs: 1000, ClockMs: 120000}
		e.Setup(s, req)
		if resp, err := hs[s].Start(ctx, req); err != nil || resp.GetError() != "" {
			t.Fatalf("start seat %d: %v %s", s, err, resp.GetError())
		}
	}
	r := rand.New(rand.NewPCG(seed, 77))
	for step := int64(1); !e.Done(); step++ {
		pending := e.Pending()
		order := r.Perm(len(pending))
		var answers []game.Answer
		for i, s := range pending {
			req := &arenav1.ActRequest{MatchId: "m", Seat: int32(s), Step: step, DeadlineMs: 1000}
			e.Observe(s, req)
			resp := &arenav1.ActResponse{}
			hs[s].ActInto(req, resp)
			answers = append(answers, game.Answer{Seat: s, Action: resp, Order: order[i], Elapsed: time.Millisecond})
		}
		if err := e.Apply(answers); err != nil {
			t.Fatal(err)
		}
	}
	for s := range bots {
		req := &arenav1.EndRequest{MatchId: "m", Seat: int32(s)}
		e.Final(s, req)
		if _, err := hs[s].End(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	return e.Outcome()
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
