package dynamitebots

import (
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
)

// Scissors always plays scissors (the seed's example function bot).
func Scissors() sdk.Bot {
	return sdk.Bot{Name: "scissors", Author: "house", Version: "1",
		Dynamite: func() sdk.DynamitePlayer {
			return sdk.DynamiteFunc(func(*sdk.DynamiteState) sdk.DynamiteMove { return sdk.Scissors })
		}}
}

// Paper always plays paper (the seed's PaperBot).
func Paper() sdk.Bot {
	return sdk.Bot{Name: "paper", Author: "house", Version: "1",
		Dynamite: func() sdk.DynamitePlayer {
			return sdk.DynamiteFunc(func(*sdk.DynamiteState) sdk.DynamiteMove { return sdk.Paper })
		}}
}

// Dynamite plays its 100 dynamite first, then random R, P or S (the seed's dynamite bot).
func Dynamite() sdk.Bot { return DynamiteSeeded(rand.Uint64()) }

// DynamiteSeeded is Dynamite with a fixed seed, for reproducible tests.
func DynamiteSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "dynamite", Author: "house", Version: "1",
		Dynamite: func() sdk.DynamitePlayer {
			r := rand.New(rand.NewPCG(seed, 1))
			return sdk.DynamiteFunc(func(s *sdk.DynamiteState) sdk.DynamiteMove {
				if s.OwnDynamiteLeft > 0 {
					return sdk.Dynamite
				}
				return [...]sdk.DynamiteMove{sdk.Rock, sdk.Paper, sdk.Scissors}[r.IntN(3)]
			})
		}}
}

// BeatLast is the strong baseline: it counts what the opponent played after each of its own
// recent moves and answers the likeliest, saves dynamite for rolled-over stakes, and throws
// water when the opponent tends to dynamite big stakes.
func BeatLast() sdk.Bot { return BeatLastSeeded(rand.Uint64()) }

// BeatLastSeeded is BeatLast with a fixed seed, for reproducible tests.
func BeatLastSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "beatlast", Author: "house", Version: "1",
		Dynamite: func() sdk.DynamitePlayer { return &beatLast{r: rand.New(rand.NewPCG(seed, 2))} }}
}

type beatLast struct {
	r *rand.Rand
	// counts[prev][next] of the opponent's moves.
	counts      [256][256]int
	oppDynStake [8]int // how often the opponent threw dynamite at stake k (capped)
	stakeSeen   [8]int
	seen        int
	stakeOf     []int
}

var beats = map[sdk.DynamiteMove]sdk.DynamiteMove{sdk.Rock: sdk.Paper, sdk.Paper: sdk.Scissors, sdk.Scissors: sdk.Rock, sdk.Dynamite: sdk.Water}

func (b *beatLast) Move(s *sdk.DynamiteState) sdk.DynamiteMove {
	// Learn from the rounds we have not looked at yet.
	for ; b.seen < len(s.Rounds); b.seen++ {
		i := b.seen
		stake := 1
		if i < len(b.stakeOf) {
			stake = b.stakeOf[i]
		}
		k := min(stake, 7)
		b.stakeSeen[k]++
		if s.Rounds[i].Opponent == sdk.Dynamite {
			b.oppDynStake[k]++
		}
		if i > 0 {
			b.counts[s.Rounds[i-1].Opponent][s.Rounds[i].Opponent]++
		}
	}
	b.stakeOf = append(b.stakeOf, s.Stake)
	k := min(s.Stake, 7)
	// Big stake: dynamite if we can afford it, water if they tend to dynamite here.
	if s.Stake >= 2 {
		if b.stakeSeen[k] > 3 && b.oppDynStake[k]*2 > b.stakeSeen[k] && s.OpponentDynamiteLeft > 0 {
			return sdk.Water
		}
		if s.OwnDynamiteLeft > 0 && b.r.IntN(3) > 0 {
			return sdk.Dynamite
		}
	}
	if len(s.Rounds) > 0 {
		prev := s.Rounds[len(s.Rounds)-1].Opponent
		best, n := sdk.DynamiteMove(0), 0
		for _, m := range []sdk.DynamiteMove{sdk.Rock, sdk.Paper, sdk.Scissors, sdk.Dynamite} {
			if c := b.counts[prev][m]; c > n {
				best, n = m, c
			}
		}
		if n >= 2 {
			if best == sdk.Dynamite && s.OpponentDynamiteLeft == 0 {
				best = sdk.Rock
			}
			if reply := beats[best]; reply != sdk.Dynamite || s.OwnDynamiteLeft > 0 {
				return reply
			}
		}
	}
	return [...]sdk.DynamiteMove{sdk.Rock, sdk.Paper, sdk.Scissors}[b.r.IntN(3)]
}
