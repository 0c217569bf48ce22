package realtv_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/realtv"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/arena/players"
	realtvbots "github.com/botarena/arena/bots/realtv"
	"github.com/botarena/arena/sdk"
	sdkrealtv "github.com/botarena/arena/sdk/realtv"
)

// TestGolden plays fixed contests and compares them turn by turn with testdata/*.golden
// (go test -run TestGolden -update rewrites them).
func TestGolden(t *testing.T) {
	t.Parallel()
	for _, p := range []gametest.Playthrough{
		// Two scripts (22 instances) on two islands with fillers: self-votes are betrayal,
		// trials, ties and their second vote, the last one standing.
		{Name: "schemer-vs-likesthemstrong", Seed: 1, Params: map[string]string{"phases": "2"},
			Players: []match.Player{
				players.NewInProcess("Schemer", realtvbots.Schemer()),
				players.NewInProcess("LikesThemStrong", realtvbots.LikesThemStrong()),
			}},
		// A script that keeps islands alive: trials passed, split votes, tie votes,
		// eliminations and a last one standing, besides betrayal.
		{Name: "picky-vs-likesthemstrong", Seed: 5, Params: map[string]string{"phases": "2"},
			Players: []match.Player{
				players.NewInProcess("Picky", picky()),
				players.NewInProcess("LikesThemStrong", realtvbots.LikesThemStrong()),
			}},
	} {
		t.Run(p.Name, func(t *testing.T) { gametest.Golden(t, realtv.Spec, p) })
	}
}

// picky is a test script that keeps islands alive for many days: its weak instances
// (strength 4 or less) betray at once, which leaves the island strong enough for its trials;
// the others vote for another active player picked from their own id and the day, so votes
// split and ties come up.
func picky() sdk.Bot {
	pick := func(ctx *sdkrealtv.Context, from map[string]*sdkrealtv.PlayerContext) string {
		var others []*sdkrealtv.PlayerContext
		for _, p := range sdkrealtv.Sorted(from) {
			if p.ID != ctx.Me.ID {
				others = append(others, p)
			}
		}
		if len(others) == 0 {
			return ctx.Me.ID
		}
		h := ctx.Day
		for _, c := range ctx.Me.ID {
			h += int(c)
		}
		return others[h%len(others)].ID
	}
	return sdk.Bot{Name: "Picky", Author: "test", Version: "1",
		Games: []sdk.Game{sdkrealtv.Play(func(sdkrealtv.Setup) sdkrealtv.Player {
			return sdkrealtv.Funcs{
				Elimination: func(ctx *sdkrealtv.Context) string {
					if ctx.Me.Strength <= 4 {
						return ctx.Me.ID
					}
					return pick(ctx, ctx.ActivePlayers)
				},
				Tie: func(ctx *sdkrealtv.Context) string { return pick(ctx, ctx.CurrentTies) },
			}
		})}}
}
