package ladder

import (
	"math"
	"sort"

	"github.com/botarena/arena/arena/rating"
	"github.com/botarena/arena/arena/store"
)

// Pick chooses a ladder pair among free versions (nil when no two authors have one), authors
// first: the first seat goes to the author who has played fewest ladder matches (played, by
// user id; ties drawn with rnd), and within that author to the version with the fewest
// matches while any has fewer than NewMatches, else the one with the largest sigma. Its
// opponent is drawn among the three other authors whose best version gives the best match
// quality. So an author's many bots or fresh versions share one author's turn: however many
// they upload, they get no more than the others' share. rnd is in [0, 1).
func Pick(vs []store.Version, played map[int64]int, rnd func() float64) []store.Version {
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
	k := min(3, len(cs))
	b := cs[int(rnd()*float64(k))%k].v
	return []store.Version{a, b}
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
