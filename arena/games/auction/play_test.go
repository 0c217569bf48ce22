package auction

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// playRandom plays a whole auction with RandomLegal bids (and a fault now and then when
// faultRate > 0) and returns a fingerprint of the match.
func playRandom(t *testing.T, seed uint64, players int, faultRate float64) (string, *Engine) {
	t.Helper()
	cfg := game.Config{Seed: seed}
	for i := range players {
		cfg.Players = append(cfg.Players, game.Player{Name: fmt.Sprint("p", i)})
	}
	eng, err := Spec.NewEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e := eng.(*Engine)
	r := rand.New(rand.NewPCG(seed, 99))
	fp := ""
	for steps := 0; !e.Done(); steps++ {
		if steps > len(e.items) {
			t.Fatalf("seed %d: more rounds than items", seed)
		}
		pending := e.Pending()
		if len(pending) == 0 {
			t.Fatal("not done, nobody pending")
		}
		answers := make([]game.Answer, len(pending))
		perm := r.Perm(len(pending))
		for i, s := range pending {
			req := &arenav1.ActRequest{}
			e.Observe(s, req)
			answers[i] = game.Answer{Seat: s, Order: perm[i], Elapsed: time.Duration(r.IntN(50)) * time.Millisecond}
			if r.Float64() < faultRate {
				answers[i].Fault = &game.Fault{Kind: game.FaultKind(1 + r.IntN(3))}
			} else {
				answers[i].Action = RandomLegal(r, req)
			}
		}
		if err := e.Apply(answers); err != nil {
			t.Fatal(err)
		}
		for i := range e.players {
			if p := e.players[i]; !p.out && p.money < 0 {
				t.Fatalf("seat %d has negative money %d", i, p.money)
			}
		}
		fp += fmt.Sprint(e.lastWinner, e.lastBid, ";")
	}
	out := e.Outcome()
	wins := 0
	for _, p := range out.Players {
		if p.Result == game.ResultNone || p.Rank < 1 {
			t.Fatalf("bad outcome %+v", out.Players)
		}
		if p.Result == game.ResultWin {
			wins++
		}
	}
	if wins > 1 {
		t.Fatalf("%d winners", wins)
	}
	return fp + out.Summary, e
}

func TestAuctionRandomPlayTerminates2To12Players(t *testing.T) {
	t.Parallel()
	for n := 2; n <= 12; n++ {
		for seed := range uint64(4) {
			_, e := playRandom(t, seed, n, 0)
			if e.Winner() < 0 {
				t.Errorf("%d players seed %d: random legal play with n=3 should find a winner: %s", n, seed, e.Outcome().Summary)
			}
		}
	}
}

func TestAuctionSameSeedSameMatch(t *testing.T) {
	t.Parallel()
	a, _ := playRandom(t, 7, 5, 0.05)
	b, _ := playRandom(t, 7, 5, 0.05)
	c, _ := playRandom(t, 8, 5, 0.05)
	if a != b {
		t.Fatal("same seed, different match")
	}
	if a == c {
		t.Fatal("different seeds, same match")
	}
}

func TestAuctionRandomFaultsNeverBreakTheEngine(t *testing.T) {
	t.Parallel()
	for seed := range uint64(30) {
		playRandom(t, seed, 2+int(seed%7), 0.2)
	}
}
