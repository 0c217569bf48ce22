package realtvbots

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/realtv"
	"github.com/botarena/arena/arena/players"
	"github.com/botarena/arena/sdk"
	sdkrealtv "github.com/botarena/arena/sdk/realtv"
)

// contest runs a Real TV contest in-process through the real match runner: one in-process
// player per script hosts its 11 instances, as one bot process would.
func contest(t *testing.T, seed uint64, phases int, scripts ...sdk.Bot) game.Outcome {
	t.Helper()
	cfg := game.Config{Seed: seed, Params: map[string]string{"phases": strconv.Itoa(phases)}}
	for _, b := range scripts {
		cfg.Players = append(cfg.Players, game.Player{Name: b.Name})
	}
	res, err := players.Play(context.Background(), realtv.Spec, cfg, scripts...)
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcome
}

func logTable(t *testing.T, out game.Outcome) {
	t.Helper()
	t.Log(out.Summary)
	for _, row := range out.Table {
		if row[2] == "all 11" || row[0] == "rank" {
			t.Log(row)
		}
	}
}

func TestSeedBotsPlayWithoutFaults(t *testing.T) {
	t.Parallel()
	out := contest(t, 1, 20, LikesThemStrong(), FillerSeeded(1))
	logTable(t, out)
	for _, f := range out.Faults {
		if f.Kind != game.FaultIllegal {
			t.Fatalf("fault %+v", f)
		}
	}
}

func TestSchemerBeatsSeedBotsClearly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		others func(seed uint64) []sdk.Bot
	}{
		{"LikesThemStrong", func(uint64) []sdk.Bot { return []sdk.Bot{LikesThemStrong()} }},
		{"Filler", func(seed uint64) []sdk.Bot { return []sdk.Bot{FillerSeeded(seed)} }},
		{"Both", func(seed uint64) []sdk.Bot { return []sdk.Bot{LikesThemStrong(), FillerSeeded(seed)} }},
		{"Crowd", func(seed uint64) []sdk.Bot {
			return []sdk.Bot{LikesThemStrong(), FillerSeeded(seed), LikesThemStrong(), FillerSeeded(seed + 1), LikesThemStrong()}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(2) {
				out := contest(t, seed, 100, append([]sdk.Bot{Schemer()}, tc.others(seed)...)...)
				logTable(t, out)
				if len(out.Faults) != 0 {
					t.Fatalf("faults: %+v", out.Faults[0])
				}
				best := 0.0
				for _, p := range out.Players[1:] {
					best = max(best, p.Score)
				}
				// Clearly: at least twice the best of the others' totals.
				if out.Players[0].Rank != 1 || out.Players[0].Score < 2*best {
					t.Fatalf("seed %d: schemer %v, best of the others %v", seed, out.Players[0].Score, best)
				}
			}
		})
	}
}

// memo remembers every phase it was asked in; one value per instance.
type memo struct {
	id     string
	phases []int
	ended  float64
}

func (m *memo) VoteForElimination(ctx *sdkrealtv.Context) string {
	if n := len(m.phases); n == 0 || m.phases[n-1] != ctx.Game.PhaseIndex {
		m.phases = append(m.phases, ctx.Game.PhaseIndex)
	}
	if ctx.Me == nil || ctx.Me.ID != m.id {
		panic("context of another instance")
	}
	return sdkrealtv.IDOf(sdkrealtv.Weakest(ctx.ActivePlayers))
}

func (m *memo) VoteForTie(ctx *sdkrealtv.Context) string {
	return sdkrealtv.IDOf(sdkrealtv.Weakest(ctx.CurrentTies))
}

func (m *memo) End(score float64) { m.ended = score }

func TestInstancesKeepMemoryAcrossPhases(t *testing.T) {
	t.Parallel()
	var instances []*memo
	bot := sdk.Bot{Name: "memo", Games: []sdk.Game{sdkrealtv.Play(func(s sdkrealtv.Setup) sdkrealtv.Player {
		m := &memo{id: s.ID}
		instances = append(instances, m)
		return m
	})}}
	out := contest(t, 5, 30, bot, LikesThemStrong())
	if len(instances) != 11 {
		t.Fatalf("%d instances made, want 11", len(instances))
	}
	total := 0.0
	for i, m := range instances {
		// Every instance votes first thing in every phase, so it saw all 30, in order.
		if len(m.phases) != 30 || m.phases[0] != 0 || m.phases[29] != 29 {
			t.Fatalf("instance %d saw phases %v", i, m.phases)
		}
		total += m.ended
	}
	if math.Abs(total-out.Players[0].Score) > 1e-6 {
		t.Fatalf("instances ended with %v in all, the script scored %v", total, out.Players[0].Score)
	}
}
