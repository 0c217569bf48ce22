package realtvbots

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/realtv"
)

// Schemer is the strong baseline.
func Schemer() sdk.Bot {
	return sdk.Bot{Name: "Schemer", Author: "house", Version: "1",
		Games: []sdk.Game{realtv.Play(func(s realtv.Setup) realtv.Player { return &schemer{setup: s} })}}
}

// schemer betrays on its first vote whenever the players expected to stay without it would
// fail the trial (and at least two of them stay, else the last one would take 100 with no
// trial): traitors split 100 points when the trial fails, and an island of random strengths
// nearly always fails on its first day. Otherwise it stays, earns +3 a day and votes out the
// weakest player of another script, keeping the island strong enough to pass its trials; in a
// tie it does the same among the tied.
type schemer struct {
	setup realtv.Setup
}

func difficulty(n int) int { return 7*n - 3 }

// betrays guesses whether another player will betray today. Filler bots and the seed's bots
// vote for the weakest player, themselves included, so the weakest one (mostly) votes for
// itself; everyone else is taken to stay.
func betrays(p *realtv.PlayerContext, ctx *realtv.Context) bool {
	weakest := realtv.Weakest(ctx.ActivePlayers)
	return weakest != nil && weakest.ID == p.ID
}

func (b *schemer) VoteForElimination(ctx *realtv.Context) string {
	me := ctx.Me
	// Who stays if I betray: the others, less those expected to betray.
	var rest []*realtv.PlayerContext
	for _, p := range realtv.Sorted(ctx.ActivePlayers) {
		if p.ID != me.ID && !betrays(p, ctx) {
			rest = append(rest, p)
		}
	}
	sum := 0
	for _, p := range rest {
		sum += p.Strength
	}
	if len(rest) >= 2 && sum < difficulty(len(rest)) {
		return me.ID // the trial fails without me: betray and share the bounty
	}
	// Stay: vote for the weakest other player who is not one of my own instances.
	var target *realtv.PlayerContext
	for _, p := range rest {
		if p.Name == b.setup.Name {
			continue
		}
		if target == nil || p.Strength < target.Strength {
			target = p
		}
	}
	if target == nil {
		for _, p := range rest {
			if target == nil || p.Strength < target.Strength {
				target = p
			}
		}
	}
	if target == nil {
		return me.ID
	}
	return target.ID
}

func (b *schemer) VoteForTie(ctx *realtv.Context) string {
	var target *realtv.PlayerContext
	for _, p := range realtv.Sorted(ctx.CurrentTies) {
		if p.Name == b.setup.Name {
			continue
		}
		if target == nil || p.Strength < target.Strength {
			target = p
		}
	}
	if target == nil {
		target = realtv.Weakest(ctx.CurrentTies)
	}
	return realtv.IDOf(target)
}
