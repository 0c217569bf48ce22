package realtv

import (
	"context"
	"fmt"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

type realtvRecorder struct {
	setup Setup
	ctxs  []*Context
	score float64
}

func (r *realtvRecorder) VoteForElimination(ctx *Context) string {
	r.ctxs = append(r.ctxs, ctx)
	return IDOf(Weakest(ctx.ActivePlayers))
}

func (r *realtvRecorder) VoteForTie(ctx *Context) string {
	r.ctxs = append(r.ctxs, ctx)
	return IDOf(Strongest(ctx.CurrentTies))
}

func (r *realtvRecorder) End(score float64) { r.score = score }

func TestRealtvOneProcessHostsElevenInstances(t *testing.T) {
	t.Parallel()
	recs := map[string]*realtvRecorder{}
	h := sdk.NewHandler(sdk.Bot{Name: "rec", Games: []sdk.Game{Play(func(s Setup) Player {
		r := &realtvRecorder{setup: s}
		recs[s.ID] = r
		return r
	})}})
	for i := range 11 {
		id := fmt.Sprintf("ID%08d", i)
		r, _ := h.Start(context.Background(), &arenav1.StartRequest{MatchId: "c", Seat: int32(i), Game: "realtv",
			Setup: &arenav1.StartRequest_Realtv{Realtv: &arenav1.RealtvSetup{Id: id, Name: "rec", Strength: int32(i), Instance: int32(i), Phases: 100, PlayersPerIsland: 12}}})
		if r.GetError() != "" {
			t.Fatal(r.GetError())
		}
	}
	if len(recs) != 11 || recs["ID00000007"].setup.Strength != 7 || recs["ID00000007"].setup.Phases != 100 {
		t.Fatalf("instances %v", recs)
	}
	p := func(id string, str int32, score float64, moves ...*arenav1.RealtvVotes) *arenav1.RealtvPlayer {
		return &arenav1.RealtvPlayer{Id: id, Name: "x", Strength: str, Score: score, PreviousMoves: moves}
	}
	me := p("ID00000003", 3, 12.5, &arenav1.RealtvVotes{FirstVote: "F1", TieVote: "F2"})
	o := &arenav1.RealtvObservation{Decision: arenav1.RealtvDecision_REALTV_DECISION_ELIMINATION, IslandIndex: 2, Day: 2, OwnId: "ID00000003", OwnScore: 12.5,
		Game:          &arenav1.RealtvGameContext{TotalBots: 13, TotalHumans: 55, PhaseIndex: 4},
		ActivePlayers: map[string]*arenav1.RealtvPlayer{"ID00000003": me, "F1": p("F1", 1, 0), "F2": p("F2", 1, 0), "F9": p("F9", 9, 3)},
		Betrayers:     map[string]*arenav1.RealtvPlayer{"B1": p("B1", 0, 0)}, EliminatedPlayers: map[string]*arenav1.RealtvPlayer{"E1": p("E1", 5, 0)}}
	var resp arenav1.ActResponse
	h.ActInto(&arenav1.ActRequest{MatchId: "c", Seat: 3, Step: 1, DeadlineMs: 1000, Observation: &arenav1.ActRequest_Realtv{Realtv: o}}, &resp)
	if resp.GetRealtv().GetVoteId() != "F1" {
		t.Fatalf("weakest with the smallest id: %v", &resp)
	}
	ctx := recs["ID00000003"].ctxs[0]
	if ctx.IslandIndex != 2 || ctx.Day != 2 || ctx.Game != (GameContext{13, 55, 4}) || len(ctx.ActivePlayers) != 4 || ctx.Me.Strength != 3 ||
		ctx.Me.PreviousMoves[0] != (Votes{"F1", "F2"}) || ctx.MyScore != 12.5 || ctx.Betrayers["B1"] == nil || ctx.EliminatedPlayers["E1"].Strength != 5 ||
		len(ctx.CurrentTies) != 0 {
		t.Fatalf("context %+v", ctx)
	}
	o.Decision = arenav1.RealtvDecision_REALTV_DECISION_TIE
	o.CurrentTies = map[string]*arenav1.RealtvPlayer{"F9": o.ActivePlayers["F9"], "F2": o.ActivePlayers["F2"]}
	h.ActInto(&arenav1.ActRequest{MatchId: "c", Seat: 3, Step: 2, DeadlineMs: 1000, Observation: &arenav1.ActRequest_Realtv{Realtv: o}}, &resp)
	if resp.GetRealtv().GetVoteId() != "F9" {
		t.Fatalf("tie vote %v", &resp)
	}
	if tie := recs["ID00000003"].ctxs[1]; tie.CurrentTies["F9"] != tie.ActivePlayers["F9"] {
		t.Fatal("the same player is one object in every map")
	}
	h.End(context.Background(), &arenav1.EndRequest{MatchId: "c", Seat: 3, Score: 321})
	if recs["ID00000003"].score != 321 {
		t.Fatal("End not called")
	}
}

func TestRealtvSortedIsByID(t *testing.T) {
	t.Parallel()
	m := map[string]*PlayerContext{"B": {ID: "B"}, "A": {ID: "A"}, "C": {ID: "C"}}
	s := Sorted(m)
	if s[0].ID != "A" || s[1].ID != "B" || s[2].ID != "C" {
		t.Fatal(s)
	}
	if Weakest(nil) != nil || IDOf(nil) != "" {
		t.Fatal("empty")
	}
}
