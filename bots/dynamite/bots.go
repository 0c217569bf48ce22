package dynamitebots

import (
	"math/rand/v2"

	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

// Scissors always plays scissors (the seed's example function bot).
func Scissors() sdk.Bot {
	return sdk.Bot{Name: "scissors", Author: "house", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Scissors })
		})}}
}

// Paper always plays paper (the seed's PaperBot).
func Paper() sdk.Bot {
	return sdk.Bot{Name: "paper", Author: "house", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Paper })
		})}}
}

// Dynamite plays its 100 dynamite first, then random R, P or S (the seed's dynamite bot).
func Dynamite() sdk.Bot { return DynamiteSeeded(rand.Uint64()) }

// DynamiteSeeded is Dynamite with a fixed seed, for reproducible tests.
func DynamiteSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "dynamite", Author: "house", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			r := rand.New(rand.NewPCG(seed, 1))
			return dynamite.Func(func(s *dynamite.State) dynamite.Move {
				if s.OwnDynamiteLeft > 0 {
					return dynamite.Dynamite
				}
				return [...]dynamite.Move{dynamite.Rock, dynamite.Paper, dynamite.Scissors}[r.IntN(3)]
			})
		})}}
}

// BeatLast is the strong baseline: it counts what the opponent played after each of its own
// recent moves and answers the likeliest, saves dynamite for rolled-over stakes, and throws
// water when the opponent tends to dynamite big stakes.
func BeatLast() sdk.Bot { return BeatLastSeeded(rand.Uint64()) }

// BeatLastSeeded is BeatLast with a fixed seed, for reproducible tests.
func BeatLastSeeded(seed uint64) sdk.Bot {
	return sdk.Bot{Name: "beatlast", Author: "house", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player { return &beatLast{r: rand.New(rand.NewPCG(seed, 2))} })}}
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

var beats = map[dynamite.Move]dynamite.Move{dynamite.Rock: dynamite.Paper, dynamite.Paper: dynamite.Scissors, dynamite.Scissors: dynamite.Rock, dynamite.Dynamite: dynamite.Water}

func (b *beatLast) Move(s *dynamite.State) dynamite.Move {
	// Learn from the rounds we have not looked at yet.
	for ; b.seen < len(s.Rounds); b.seen++ {
		i := b.seen
		stake := 1
		if i < len(b.stakeOf) {
			stake = b.stakeOf[i]
		}
		k := min(stake, 7)
		b.stakeSeen[k]++
		if s.Rounds[i].Opponent == dynamite.Dynamite {
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
			return dynamite.Water
		}
		if s.OwnDynamiteLeft > 0 && b.r.IntN(3) > 0 {
			return dynamite.Dynamite
		}
	}
	if len(s.Rounds) > 0 {
		prev := s.Rounds[len(s.Rounds)-1].Opponent
		best, n := dynamite.Move(0), 0
		for _, m := range []dynamite.Move{dynamite.Rock, dynamite.Paper, dynamite.Scissors, dynamite.Dynamite} {
			if c := b.counts[prev][m]; c > n {
				best, n = m, c
			}
		}
		if n >= 2 {
			if best == dynamite.Dynamite && s.OpponentDynamiteLeft == 0 {
				best = dynamite.Rock
			}
			if reply := beats[best]; reply != dynamite.Dynamite || s.OwnDynamiteLeft > 0 {
				return reply
			}
		}
	}
	return [...]dynamite.Move{dynamite.Rock, dynamite.Paper, dynamite.Scissors}[b.r.IntN(3)]
}
