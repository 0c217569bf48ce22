package fingerbots

import (
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/finger"
)

// Random plays a uniformly random legal move (the house's version of the seed's example).
func Random() sdk.Bot { return RandomSeeded(rand.Uint64()) }

// RandomSeeded is Random with a fixed seed, for reproducible tests.
func RandomSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "random", Author: "house", Version: "1",
		Games: []sdk.Game{finger.Play(func() finger.Player {
			r := rand.New(rand.NewPCG(seed, 1))
			return finger.Func(func(s *finger.State) finger.Move {
				moves := s.LegalMoves()
				return moves[r.IntN(len(moves))]
			})
		})}}
}

// Strong plays the solved game: from a won position it takes the fastest win; from a drawn one
// it keeps the draw with the move that leaves the opponent the most losing replies; from a lost
// one it stalls as long as it can, again preferring traps.
func Strong() sdk.Bot { return StrongSeeded(rand.Uint64()) }

// StrongSeeded is Strong with a fixed seed (it breaks ties between equal moves at random),
// for reproducible tests.
func StrongSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "strong", Author: "house", Version: "1",
		Games: []sdk.Game{finger.Play(func() finger.Player { return &strong{t: table(), r: rand.New(rand.NewPCG(seed, 2))} })}}
}

type strong struct {
	t *solution
	r *rand.Rand
}

// trap is the share of the opponent's replies from q (its turn) that hand us a won position.
func (b *strong) trap(q position) float64 {
	replies := legal(q)
	if len(replies) == 0 {
		return 0
	}
	n := 0
	for _, m := range replies {
		if b.t.value[after(q, m).index()] == won {
			n++
		}
	}
	return float64(n) / float64(len(replies))
}

func (b *strong) Move(s *finger.State) finger.Move {
	p := stateOf(s)
	moves := legal(p)
	var best finger.Move
	bestScore, ties := 0.0, 0
	for _, m := range moves {
		q := after(p, m)
		if q.ownL == 0 && q.ownR == 0 {
			return m // the opponent has no hand left: we win now
		}
		// Score: winning moves first (faster is better), then draws by trap share, then losses
		// by length and trap share.
		var score float64
		switch i := q.index(); b.t.value[i] {
		case lost:
			score = 3000 - float64(b.t.depth[i])
		case drawn:
			score = 1000 + b.trap(q)
		default:
			score = float64(b.t.depth[i]) + b.trap(q)
		}
		switch {
		case ties == 0 || score > bestScore:
			best, bestScore, ties = m, score, 1
		case score == bestScore:
			// Reservoir sampling keeps the choice among equals uniform.
			ties++
			if b.r.IntN(ties) == 0 {
				best = m
			}
		}
	}
	return best
}
