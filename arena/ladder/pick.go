package ladder

import (
	"math"
	"sort"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// Pick chooses a ladder match of up to seats versions among free versions, one per author
// (nil when no two authors have one), authors first: the first seat goes to the author who
// has played fewest ladder matches (played, by user id; ties drawn with rnd), and within that
// author to the version with the fewest matches while any has fewer than NewMatches, else the
// one with the largest sigma. Each other author offers its version that gives the best match
// quality with the first. A pair's opponent is drawn among the three best offers; a table
// (seats > 2, the game's own format) is filled by the least served authors, the closest
// offer first among equals. So an author's many bots or fresh versions share one author's
// turn: however many they upload, they get no more than the others' share. rnd is in [0, 1).
func Pick(vs []store.Version, played map[int64]int, seats int, rnd func() float64) []store.Version {
	byAuthor := map[int64][]store.Version{}
	var authors []int64
	for _, v := range vs {
		u := v.Bot.UserID
		if byAuthor[u] == nil {
			authors = append(authors, u)
		}
		byAuthor[u] = append(byAuthor[u], v)
	}
	if len(authors) < 2 {
		return nil
	}
	var least []int64
	for _, u := range authors {
		switch {
		case len(least) == 0 || played[u] < played[least[0]]:
			least = []int64{u}
		case played[u] == played[least[0]]:
			least = append(least, u)
		}
	}
	first := least[int(rnd()*float64(len(least)))%len(least)]
	a := mostWanted(byAuthor[first])
	type cand struct {
		v store.Version
		q float64
	}
	var cs []cand
	for _, u := range authors {
		if u == first {
			continue
		}
		best := cand{q: -1}
		for _, v := range byAuthor[u] {
			if q := Quality(a, v); q > best.q {
				best = cand{v, q}
			}
		}
		cs = append(cs, best)
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].q > cs[j].q })
	if seats <= 2 {
		k := min(3, len(cs))
		return []store.Version{a, cs[int(rnd()*float64(k))%k].v}
	}
	sort.SliceStable(cs, func(i, j int) bool { return played[cs[i].v.Bot.UserID] < played[cs[j].v.Bot.UserID] })
	table := []store.Version{a}
	for _, c := range cs[:min(seats-1, len(cs))] {
		table = append(table, c.v)
	}
	// Seat order is drawn too: no author always holds seat 0 (the auction's ties go to the
	// first answer, not the first seat, but a game may care).
	for i := len(table) - 1; i > 0; i-- {
		j := int(rnd()*float64(i+1)) % (i + 1)
		table[i], table[j] = table[j], table[i]
	}
	return table
}

// mostWanted is the version of one author that most needs a match: the one with the fewest
// matches while any has fewer than NewMatches, else the one with the largest sigma.
func mostWanted(vs []store.Version) store.Version {
	first := 0
	for i, v := range vs {
		f := vs[first]
		switch {
		case v.Matches < NewMatches || f.Matches < NewMatches:
			if v.Matches < f.Matches {
				first = i
			}
		case v.Sigma > f.Sigma:
			first = i
		}
	}
	return vs[first]
}

// Quality is TrueSkill's draw probability for two ratings (1: evenly matched and certain).
func Quality(a, b store.Version) float64 {
	const beta = rating.DefaultSigma / 2
	c2 := 2*beta*beta + a.Sigma*a.Sigma + b.Sigma*b.Sigma
	d := a.Mu - b.Mu
	return math.Sqrt(2*beta*beta/c2) * math.Exp(-d*d/(2*c2))
}
