package anygame_test

import (
	"strings"
	"testing"

	arenav1 "github.com/botarena/arena/proto/arena/v1"
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/anygame"
)

// A player with no per-game code answers a dynamite move from the observation's JSON and its
// own JSON action; a bad answer is an invalid answer, not an action.
func TestPlaysAGameFromJSON(t *testing.T) {
	var seen string
	answer := `{"move":"DYNAMITE_MOVE_PAPER"}`
	h := sdk.NewHandler(sdk.Bot{Name: "any", Games: anygame.PlayAll(func() anygame.Player {
		return anygame.Func(func(s *anygame.State) ([]byte, error) {
			seen = s.Game + " " + string(s.ObservationJSON())
			return []byte(answer), nil
		})
	})})
	start := &arenav1.StartRequest{MatchId: "m", Game: "dynamite", Setup: &arenav1.StartRequest_Dynamite{Dynamite: &arenav1.DynamiteSetup{TargetScore: 5}}}
	if r, _ := h.Start(nil, start); r.GetError() != "" {
		t.Fatal(r.GetError())
	}
	req := &arenav1.ActRequest{MatchId: "m", Step: 1, Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: 2, LastOwn: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}
	resp, _ := h.Act(nil, req)
	if resp.GetDynamite().GetMove() != arenav1.DynamiteMove_DYNAMITE_MOVE_PAPER || resp.GetError() != nil || resp.GetStep() != 1 {
		t.Fatalf("answer %v", resp)
	}
	if !strings.Contains(seen, `dynamite {"round":2`) || !strings.Contains(seen, `"lastOwn":"DYNAMITE_MOVE_ROCK"`) {
		t.Fatalf("the player saw %s", seen)
	}
	for _, bad := range []string{`{"move":"FINGER_MOVE_SWITCH"}`, `not json`, `{"bid":3}`} {
		answer = bad
		resp, _ = h.Act(nil, req)
		if resp.GetAction() != nil || resp.GetError().GetKind() != arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER {
			t.Fatalf("answer %s: got %v, want an invalid answer and no action", bad, resp)
		}
	}
}

func TestPlayRefusesAnUnknownGame(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), `no game "chess"`) || !strings.Contains(r.(string), "dynamite") {
			t.Fatalf("recovered %v", r)
		}
	}()
	anygame.Play("chess", nil)
}
