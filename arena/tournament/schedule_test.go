package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/botarena/arena/arena/game"
)

func entries(n int, authors ...string) []Entry {
	es := make([]Entry, n)
	for i := range es {
		es[i] = Entry{Name: fmt.Sprint("b", i), Spec: "x"}
		if i < len(authors) {
			es[i].Author = authors[i]
		}
	}
	return es
}

func TestRoundRobin(t *testing.T) {
	t.Parallel()
	spec := game.Spec{Name: "duel", MinPlayers: 2, MaxPlayers: 2}
	cfg := Config{Game: "duel", Seed: 42, Reps: 2, Entries: entries(4)}
	ms, err := Schedule(spec, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 4*3*2 {
		t.Fatalf("%d matches, want 24", len(ms))
	}
	seats := map[[2]int]int{}
	ids := map[string]bool{}
	seeds := map[uint64]bool{}
	for i, m := range ms {
		if m.Idx != i || ids[m.MatchID] || seeds[m.Seed] || m.Seed >= 1<<63 {
			t.Fatalf("match %d: %+v (duplicate id/seed or bad index)", i, m)
		}
		ids[m.MatchID], seeds[m.Seed] = true, true
		seats[[2]int{m.Players[0], m.Players[1]}]++
	}
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			want := 2
			if a == b {
				want = 0
			}
			if seats[[2]int{a, b}] != want {
				t.Errorf("%d as seat 0 against %d: %d matches, want %d", a, b, seats[[2]int{a, b}], want)
			}
		}
	}
	again, _ := Schedule(spec, cfg)
	for i := range ms {
		if ms[i].Seed != again[i].Seed || ms[i].MatchID != again[i].MatchID {
			t.Fatal("schedule is not reproducible")
		}
	}
	cfg.Seed = 43
	other, _ := Schedule(spec, cfg)
	if other[0].Seed == ms[0].Seed {
		t.Fatal("the tournament seed does not change match seeds")
	}
}

func TestTables(t *testing.T) {
	t.Parallel()
	spec := game.Spec{Name: "party", MinPlayers: 2}
	cases := []struct {
		name    string
		n, m    int
		authors []string
		sizes   []int
		clash   bool
	}{
		{"even", 8, 4, nil, []int{4, 4}, false},
		{"uneven", 10, 4, nil, []int{4, 3, 3}, false},
		{"all at one", 5, 0, nil, []int{5}, false},
		{"authors apart", 6, 3, []string{"x", "x", "y", "y", "z", "z"}, []int{3, 3}, false},
		{"authors forced together", 4, 4, []string{"x", "x"}, []int{4}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg := Config{Game: "party", Seed: 7, Reps: 3, Table: c.m, Entries: entries(c.n, c.authors...)}
			ms, err := Schedule(spec, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(ms) != 3*len(c.sizes) {
				t.Fatalf("%d matches, want %d", len(ms), 3*len(c.sizes))
			}
			for _, m := range ms {
				seen := map[int]bool{}
				for _, p := range m.Players {
					if seen[p] {
						t.Fatalf("bot %d twice at %s", p, m.MatchID)
					}
					seen[p] = true
				}
				if (m.Note != "") != c.clash {
					t.Errorf("%s: note %q, clash expected %v", m.MatchID, m.Note, c.clash)
				}
			}
			for rep := 0; rep < 3; rep++ {
				count := 0
				for k, size := range c.sizes {
					if got := len(ms[rep*len(c.sizes)+k].Players); got != size {
						t.Errorf("rep %d table %d: %d players, want %d", rep, k, got, size)
					}
					count += size
				}
				if count != c.n {
					t.Errorf("rep %d seats %d bots of %d", rep, count, c.n)
				}
			}
		})
	}
}

func TestDealSpreadsAuthors(t *testing.T) {
	t.Parallel()
	es := entries(9, "a", "a", "a", "b", "b", "b")
	for s := uint64(0); s < 50; s++ {
		tables, clashes := Deal(rand.New(rand.NewPCG(s, 1)), es, 3)
		for k, tb := range tables {
			if len(clashes[k]) > 0 {
				t.Fatalf("seed %d: clash %v at table %v", s, clashes[k], tb)
			}
		}
	}
}
