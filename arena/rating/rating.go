package rating

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Rating is a point estimate with its uncertainty (one standard deviation).
type Rating struct {
	Value float64 `json:"value"`
	Err   float64 `json:"err"`
}

// Pair is one two-player result: ScoreA is 1 when A won, 0.5 for a draw, 0 when B won.
type Pair struct {
	A, B   int
	ScoreA float64
}

// Elo-scale constants.
const (
	EloMean  = 1500
	eloScale = 400 / math.Ln10
)

// BradleyTerry fits n players' strengths from pairs and returns Elo-scale ratings whose Err is a
// bootstrap standard error over boot resamples (boot <= 1: no error estimate). seed fixes the
// resampling.
func BradleyTerry(n int, pairs []Pair, boot int, seed uint64) []Rating {
	base := btFit(n, pairs)
	out := make([]Rating, n)
	for i := range out {
		out[i].Value = base[i]
	}
	if boot <= 1 || len(pairs) == 0 {
		return out
	}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	sum := make([]float64, n)
	sum2 := make([]float64, n)
	sample := make([]Pair, len(pairs))
	for b := 0; b < boot; b++ {
		for k := range sample {
			sample[k] = pairs[rng.IntN(len(pairs))]
		}
		r := btFit(n, sample)
		for i, v := range r {
			sum[i] += v
			sum2[i] += v * v
		}
	}
	for i := range out {
		m := sum[i] / float64(boot)
		out[i].Err = math.Sqrt(math.Max(0, sum2[i]/float64(boot)-m*m))
	}
	return out
}

// btFit runs the MM iteration and returns Elo-scale values centred on EloMean.
func btFit(n int, pairs []Pair) []float64 {
	wins := make([]float64, n)
	games := make(map[[2]int]float64)
	for _, p := range pairs {
		if p.A == p.B {
			continue
		}
		wins[p.A] += p.ScoreA
		wins[p.B] += 1 - p.ScoreA
		a, b := p.A, p.B
		if a > b {
			a, b = b, a
		}
		games[[2]int{a, b}]++
	}
	// Fixed iteration order keeps floating point sums reproducible.
	keys := make([][2]int, 0, len(games))
	for k := range games {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	den := make([]float64, n)
	next := make([]float64, n)
	for iter := 0; iter < 10000; iter++ {
		for i := range den {
			den[i] = 1 / (gamma[i] + 1) // the prior: one game against a player of strength 1
		}
		for _, k := range keys {
			c := games[k] / (gamma[k[0]] + gamma[k[1]])
			den[k[0]] += c
			den[k[1]] += c
		}
		change := 0.0
		for i := range next {
			next[i] = (wins[i] + 0.5) / den[i]
			change = math.Max(change, math.Abs(math.Log(next[i]/gamma[i])))
		}
		gamma, next = next, gamma
		if change < 1e-10 {
			break
		}
	}
	out := make([]float64, n)
	mean := 0.0
	for i, g := range gamma {
		out[i] = eloScale * math.Log(g)
		mean += out[i]
	}
	if n > 0 {
		mean /= float64(n)
	}
	for i := range out {
		out[i] += EloMean - mean
	}
	return out
}

// Skill is a Weng-Lin (OpenSkill) rating.
type Skill struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is the conservative estimate mu - 3 sigma used for ranking.
func (s Skill) Ordinal() float64 { return s.Mu - 3*s.Sigma }

// OpenSkill defaults.
const (
	DefaultMu    = 25.0
	DefaultSigma = DefaultMu / 3
	beta         = DefaultSigma / 2
	kappa        = 0.0001
)

// NewSkills returns n default ratings.
func NewSkills(n int) []Skill {
	s := make([]Skill, n)
	for i := range s {
		s[i] = Skill{DefaultMu, DefaultSigma}
	}
	return s
}

// PlackettLuce updates skills in place with one match: players[k] finished with ranks[k]
// (1 is best; equal ranks are ties). Each player is its own team.
func PlackettLuce(skills []Skill, players []int, ranks []int) {
	m := len(players)
	if m < 2 {
		return
	}
	c := 0.0
	for _, p := range players {
		c += skills[p].Sigma*skills[p].Sigma + beta*beta
	}
	c = math.Sqrt(c)
	e := make([]float64, m)
	for k, p := range players {
		e[k] = math.Exp(skills[p].Mu / c)
	}
	// sumQ[q]: sum of e over players ranked at q's rank or worse; a[q]: players sharing q's rank.
	sumQ := make([]float64, m)
	a := make([]float64, m)
	for q := range players {
		for k := range players {
			if ranks[k] >= ranks[q] {
				sumQ[q] += e[k]
			}
			if ranks[k] == ranks[q] {
				a[q]++
			}
		}
	}
	next := make([]Skill, m)
	for i, p := range players {
		s := skills[p]
		omega, delta := 0.0, 0.0
		for q := range players {
			if ranks[q] > ranks[i] {
				continue
			}
			quot := e[i] / sumQ[q]
			if q == i {
				omega += (1 - quot) / a[q]
			} else {
				omega -= quot / a[q]
			}
			delta += quot * (1 - quot) / a[q]
		}
		s2 := s.Sigma * s.Sigma
		gamma := s.Sigma / c
		omega *= s2 / c
		delta *= gamma * s2 / (c * c)
		next[i] = Skill{Mu: s.Mu + omega, Sigma: s.Sigma * math.Sqrt(math.Max(1-delta, kappa))}
	}
	for i, p := range players {
		skills[p] = next[i]
	}
}

// InheritSigma is the uncertainty a new version of a bot adds to its predecessor's (in
// quadrature): a new version usually plays much like the one before, but it may be better or
// worse, so it starts where its predecessor stands and moves faster for its first matches.
const InheritSigma = DefaultSigma / 2

// Inherit is a new version's starting skill: its predecessor's mean, the uncertainty widened
// by InheritSigma and never past a new bot's.
func Inherit(prev Skill) Skill {
	s := math.Sqrt(prev.Sigma*prev.Sigma + InheritSigma*InheritSigma)
	return Skill{Mu: prev.Mu, Sigma: min(s, DefaultSigma)}
}
