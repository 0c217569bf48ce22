package server

import (
	"context"
	"math"
	"net/http"
	"testing"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// A new version starts from its predecessor's rating with a wider uncertainty; a new bot
// starts from the default.
func TestNewVersionInheritsItsPredecessorsRating(t *testing.T) {
	e := newEnv(t, envOptions{})
	orga := e.organiser("orga")
	// No ladder match may move the ratings while the test sets and reads them (validation goes on).
	orga.apiJSON("POST", "/api/v1/ladder?running=false", nil, http.StatusOK, nil)
	ada := e.register("ada")
	v1 := ada.uploadAPI("dynamite", "freq", "bot.py", exampleBot(t), http.StatusAccepted)
	if v1.Mu != rating.DefaultMu || v1.Sigma != rating.DefaultSigma {
		t.Fatalf("a new bot starts at %v/%v, want the default", v1.Mu, v1.Sigma)
	}
	if got := ada.waitVersion(v1.ID); got.Status != store.VersionOK {
		t.Fatalf("v1: %s: %s", got.Status, got.Verdict)
	}
	// v1 has played its way to 40 +- 2 (a ladder match's rating update, as the ladder records it).
	ctx := context.Background()
	mid, err := e.st.StartLadderMatch(ctx, "dynamite", store.KindLadder, 1, []int64{v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.st.FinishLadderMatch(ctx, mid, store.LadderFinish{Summary: "x", Seats: []store.Seat{{Seat: 0, Result: "win", Rank: 1}},
		Replay: []byte("{}"), Ratings: map[int64][2]float64{v1.ID: {40, 2}}}); err != nil {
		t.Fatal(err)
	}
	v2 := ada.uploadAPI("dynamite", "freq", "bot.py", append(exampleBot(t), []byte("\n# v2\n")...), http.StatusAccepted)
	if v2.N != 2 || v2.Mu != 40 || math.Abs(v2.Sigma-math.Hypot(2, rating.InheritSigma)) > 1e-9 {
		t.Fatalf("v2 starts at %v +- %v (n %d), want 40 +- %v", v2.Mu, v2.Sigma, v2.N, math.Hypot(2, rating.InheritSigma))
	}
}
