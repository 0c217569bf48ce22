package biddingbots

import (
	"context"
	"strconv"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/bidding"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
)

// play runs a bidding match in-process: the engine's requests go straight to each bot's
// sdk.Handler, as the host would send them over gRPC.
func play(t *testing.T, games int, bots [2]sdk.Bot) game.Outcome {
	t.Helper()
	names := []string{bots[0].Name + "-0", bots[1].Name + "-1"}
	e, err := bidding.Spec.NewEngine(game.Config{Seed: 1, Players: []game.Player{{Name: names[0]}, {Name: names[1]}},
		Params: map[string]string{"games": strconv.Itoa(games)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var hs [2]*sdk.Handler
	for s := range 2 {
		hs[s] = sdk.NewHandler(bots[s])
		req := &arenav1.StartRequest{MatchId: "m", Seat: int32(s), Game: bidding.Name, Players: names, DeadlineMs: 1000}
		e.Setup(s, req)
		if resp, err := hs[s].Start(ctx, req); err != nil || resp.Error != "" {
			t.Fatalf("start seat %d: %v %s", s, err, resp.GetError())
		}
	}
	step := [2]int64{}
	for !e.Done() {
		var answers []game.Answer
		for _, s := range e.Pending() {
			step[s]++
			req := &arenav1.ActRequest{MatchId: "m", Seat: int32(s), Step: step[s], DeadlineMs: 1000}
			e.Observe(s, req)
			resp := &arenav1.ActResponse{}
			hs[s].ActInto(req, resp)
			answers = append(answers, game.Answer{Seat: s, Action: resp})
		}
		if err := e.Apply(answers); err != nil {
			t.Fatal(err)
		}
	}
	for s := range 2 {
		req := &arenav1.EndRequest{MatchId: "m", Seat: int32(s)}
		e.Final(s, req)
		if _, err := hs[s].End(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	return e.Outcome()
}

func TestRandomBidsAreAlwaysValid(t *testing.T) {
	t.Parallel()
	out := play(t, 200, [2]sdk.Bot{Random(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("random made faults: %+v", out.Faults[0])
	}
	t.Log(out.Summary)
}

func TestStrongBeatsRandomClearly(t *testing.T) {
	t.Parallel()
	const games = 400
	out := play(t, games, [2]sdk.Bot{Strong(), Random()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	won, lost := out.Players[0].Score, out.Players[1].Score
	t.Logf("%s; table %v", out.Summary, out.Table)
	// Strong cannot lose a game at all: the start is a forced draw and it never gives that up.
	if out.Players[0].Result != game.ResultWin || won < 0.5*games || lost != 0 {
		t.Fatalf("strong won %v, random %v of %d", won, lost, games)
	}
}

func TestStrongAgainstItself(t *testing.T) {
	t.Parallel()
	out := play(t, 20, [2]sdk.Bot{Strong(), Strong()})
	if len(out.Faults) != 0 {
		t.Fatalf("faults: %+v", out.Faults[0])
	}
	t.Log(out.Summary)
}
