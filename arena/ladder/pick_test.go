package ladder

import (
	"math/rand/v2"
	"testing"

	"github.com/botarena/arena/arena/store"
)

func v(id int64, matches int, mu, sigma float64) store.Version {
	return store.Version{ID: id, BotID: id, Matches: matches, Mu: mu, Sigma: sigma, Bot: store.WebBot{UserID: id}}
}

func TestPickNewFirstThenCloseAndUncertain(t *testing.T) {
	t.Parallel()
	zero := func() float64 { return 0 }
	if Pick([]store.Version{v(1, 0, 25, 8)}, nil, 2, zero) != nil {
		t.Fatal("a pair from one version")
	}
	// The least served author goes first, against the closest rating.
	vs := []store.Version{v(1, 50, 30, 2), v(2, 2, 25, 6), v(3, 50, 24, 2), v(4, 50, 10, 2)}
	p := Pick(vs, map[int64]int{1: 5, 3: 5, 4: 5}, 2, zero)
	if p[0].ID != 2 || p[1].ID != 3 {
		t.Fatalf("picked %d vs %d, want 2 vs 3", p[0].ID, p[1].ID)
	}
	// Within an author, a new version goes first; nobody new: the most uncertain goes first;
	// the far-away opponent is never among the best three.
	mine := func(x store.Version) store.Version { x.Bot.UserID = 9; return x }
	for _, c := range []struct {
		vs   []store.Version
		want int64
	}{
		{[]store.Version{mine(v(10, 50, 25, 5)), mine(v(11, 2, 25, 8)), mine(v(12, 50, 25, 2))}, 11},
		{[]store.Version{mine(v(10, 50, 25, 5)), mine(v(11, 50, 25, 3)), mine(v(12, 50, 25, 2))}, 10},
	} {
		all := append(c.vs, v(1, 50, 30, 2), v(3, 50, 24, 2), v(4, 50, -40, 2), v(5, 50, 26, 2))
		for _, r := range []float64{0, 0.5, 0.99} {
			p = Pick(all, map[int64]int{1: 1, 3: 1, 4: 1, 5: 1}, 2, func() float64 { return r })
			if p[0].ID != c.want || p[1].ID == 4 || p[1].Bot.UserID == 9 {
				t.Fatalf("rnd %v: picked %d vs %d, want %d first", r, p[0].ID, p[1].ID, c.want)
			}
		}
	}
	// Two versions of one author never play each other.
	same := []store.Version{{ID: 1, BotID: 9, Sigma: 8}, {ID: 2, BotID: 10, Sigma: 8}}
	if Pick(same, nil, 2, zero) != nil {
		t.Fatal("paired an author with itself")
	}
	if q1, q2 := Quality(v(1, 0, 25, 2), v(2, 0, 25, 2)), Quality(v(1, 0, 25, 2), v(2, 0, 35, 2)); q1 <= q2 {
		t.Fatalf("quality of equals %v <= unequal %v", q1, q2)
	}
}

// TestPickFairAcrossAuthors: an author with 30 bots, each a fresh version (0 matches, which
// used to go first every time), gets no more ladder matches than an author with one old
// version or the house: the first seat goes to the least served author, and each other
// author is one candidate for the second.
func TestPickFairAcrossAuthors(t *testing.T) {
	t.Parallel()
	const flooder, honest, house = 1, 2, 3
	var vs []store.Version
	for i := range 30 {
		vs = append(vs, store.Version{ID: int64(100 + i), BotID: int64(100 + i), Mu: 25, Sigma: 8, Bot: store.WebBot{UserID: flooder}})
	}
	vs = append(vs, store.Version{ID: 1, BotID: 1, Matches: 200, Mu: 27, Sigma: 2, Bot: store.WebBot{UserID: honest}},
		store.Version{ID: 2, BotID: 2, Matches: 200, Mu: 24, Sigma: 2, Bot: store.WebBot{UserID: house}})
	rng := rand.New(rand.NewPCG(1, 2))
	played := map[int64]int{}
	const matches = 300
	for range matches {
		p := Pick(vs, played, 2, rng.Float64)
		if p == nil || p[0].Bot.UserID == p[1].Bot.UserID {
			t.Fatalf("pair %+v", p)
		}
		for _, v := range p {
			played[v.Bot.UserID]++
		}
	}
	t.Logf("of %d matches: flooder (30 fresh bots) %d, honest (1 bot) %d, house %d", matches, played[flooder], played[honest], played[house])
	// Three authors, two seats a match: a fair share is 2/3 of the matches each.
	for u, n := range played {
		if n > matches*2/3+2 {
			t.Fatalf("author %d played %d of %d matches, more than a fair share: %v", u, n, matches, played)
		}
	}
	if played[honest] < matches/2 {
		t.Fatalf("the honest author played %d of %d matches: %v", played[honest], matches, played)
	}
}

// TestPickTableFair: a table (the auction's four seats) holds one version per author, the
// flooder's thirty bots one seat among them; over many tables of four among seven authors
// every author gets its share (4/7 of the tables, give or take one), and no author always
// holds seat 0.
func TestPickTableFair(t *testing.T) {
	t.Parallel()
	const seats, authors, tables = 4, 7, 350
	var vs []store.Version
	for i := range 30 {
		vs = append(vs, store.Version{ID: int64(100 + i), BotID: int64(100 + i), Mu: 25, Sigma: 8, Bot: store.WebBot{UserID: 1}})
	}
	for u := int64(2); u <= authors; u++ {
		vs = append(vs, store.Version{ID: u, BotID: u, Matches: 50, Mu: 20 + float64(u), Sigma: 3, Bot: store.WebBot{UserID: u}})
	}
	rng := rand.New(rand.NewPCG(3, 4))
	played := map[int64]int{}
	first := map[int64]int{}
	for range tables {
		p := Pick(vs, played, seats, rng.Float64)
		if len(p) != seats {
			t.Fatalf("a table of %d, want %d: %+v", len(p), seats, p)
		}
		seen := map[int64]bool{}
		for _, v := range p {
			if seen[v.Bot.UserID] {
				t.Fatalf("author %d holds two seats at one table: %+v", v.Bot.UserID, p)
			}
			seen[v.Bot.UserID] = true
			played[v.Bot.UserID]++
		}
		first[p[0].Bot.UserID]++
	}
	t.Logf("of %d tables of %d: %v; seat 0: %v", tables, seats, played, first)
	share := tables * seats / authors
	for u := int64(1); u <= authors; u++ {
		if played[u] < share-1 || played[u] > share+1 {
			t.Fatalf("author %d sat at %d of %d tables, want %d±1: %v", u, played[u], tables, share, played)
		}
		if first[u] == 0 || first[u] == tables {
			t.Fatalf("author %d held seat 0 at %d of %d tables: %v", u, first[u], tables, first)
		}
	}
	// Fewer authors than seats: all of them, once each.
	if p := Pick(vs[28:32], nil, seats, rng.Float64); len(p) != 3 {
		t.Fatalf("three authors (two of one) make a table of %d, want 3", len(p))
	}
}
