package ladder

import (
	"testing"

	"github.com/botarena/arena/arena/store"
)

func v(id int64, matches int, mu, sigma float64) store.Version {
	return store.Version{ID: id, BotID: id, Matches: matches, Mu: mu, Sigma: sigma}
}

func TestPickNewFirstThenCloseAndUncertain(t *testing.T) {
	t.Parallel()
	zero := func() float64 { return 0 }
	if Pick([]store.Version{v(1, 0, 25, 8)}, zero) != nil {
		t.Fatal("a pair from one version")
	}
	// A new version (2 matches) goes first, against the closest rating.
	vs := []store.Version{v(1, 50, 30, 2), v(2, 2, 25, 6), v(3, 50, 24, 2), v(4, 50, 10, 2)}
	p := Pick(vs, zero)
	if p[0].ID != 2 || p[1].ID != 3 {
		t.Fatalf("picked %d vs %d, want 2 vs 3", p[0].ID, p[1].ID)
	}
	// Nobody new: the most uncertain goes first; the far-away one is never among the best three.
	vs = []store.Version{v(1, 50, 30, 2), v(2, 50, 25, 5), v(3, 50, 24, 2), v(4, 50, -40, 2), v(5, 50, 26, 2)}
	for _, r := range []float64{0, 0.5, 0.99} {
		p = Pick(vs, func() float64 { return r })
		if p[0].ID != 2 || p[1].ID == 4 {
			t.Fatalf("rnd %v: picked %d vs %d", r, p[0].ID, p[1].ID)
		}
	}
	// Two versions of one bot never play each other.
	same := []store.Version{{ID: 1, BotID: 9, Sigma: 8}, {ID: 2, BotID: 9, Sigma: 8}}
	if Pick(same, zero) != nil {
		t.Fatal("paired a bot with itself")
	}
	if q1, q2 := Quality(v(1, 0, 25, 2), v(2, 0, 25, 2)), Quality(v(1, 0, 25, 2), v(2, 0, 35, 2)); q1 <= q2 {
		t.Fatalf("quality of equals %v <= unequal %v", q1, q2)
	}
}
