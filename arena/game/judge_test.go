package game_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/game"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// TestJudge: every game gets the same verdict for the same kind of bad answer (dynamite used
// to call a raised exception garbage where the other games called it a crash).
func TestJudge(t *testing.T) {
	t.Parallel()
	raised := &arenav1.ActResponse{Step: 3, Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_EXCEPTION, Message: "KeyError: 'x'", Traceback: "Traceback (most recent call last):\n  x\nKeyError: 'x'"}}
	invalid := &arenav1.ActResponse{Step: 3, Error: &arenav1.BotError{Kind: arenav1.BotErrorKind_BOT_ERROR_KIND_INVALID_ANSWER, Message: "move returned 'rock'"}}
	dynamite := &arenav1.ActResponse{Step: 3, Action: &arenav1.ActResponse_Dynamite{Dynamite: &arenav1.DynamiteAction{Move: arenav1.DynamiteMove_DYNAMITE_MOVE_ROCK}}}
	huge := &arenav1.ActResponse{Step: 3, Action: &arenav1.ActResponse_Realtv{Realtv: &arenav1.RealtvAction{VoteId: strings.Repeat("x", game.MaxAction)}}}
	// Every game: the cases of the proto's action oneof, one per game.
	var games []string
	cases := (&arenav1.ActResponse{}).ProtoReflect().Descriptor().Oneofs().ByName("action").Fields()
	for i := range cases.Len() {
		games = append(games, string(cases.Get(i).Name()))
	}
	for _, g := range games {
		for _, tc := range []struct {
			name   string
			resp   *arenav1.ActResponse
			step   int64
			kind   game.FaultKind
			detail string
		}{
			{"raised", raised, 3, game.FaultCrash, "raised: KeyError"},
			{"invalid", invalid, 3, game.FaultGarbage, "'rock'"},
			{"nothing", &arenav1.ActResponse{Step: 3}, 3, game.FaultGarbage, "answered nothing, not a " + g + " move"},
			{"nil", nil, 3, game.FaultGarbage, "no answer"},
			{"other request", &arenav1.ActResponse{Step: 2}, 3, game.FaultGarbage, "answered step 2 to request 3"},
			{"oversized", huge, 3, game.FaultGarbage, "bytes (an action is at most"},
		} {
			act, f := game.Judge(g, tc.step, tc.resp)
			if act != nil || f == nil || f.Kind != tc.kind || !strings.Contains(f.Detail, tc.detail) {
				t.Errorf("%s, %s: %v %+v, want %v %q", g, tc.name, act, f, tc.kind, tc.detail)
			}
		}
		act, f := game.Judge(g, 3, dynamite)
		if g == "dynamite" && (act != dynamite || f != nil) || g != "dynamite" && (act != nil || f.Kind != game.FaultGarbage || !strings.Contains(f.Detail, "answered a dynamite move, not a "+g+" move")) {
			t.Errorf("%s: a dynamite move judged %v %+v", g, act, f)
		}
	}
	a := game.JudgeAnswer("dynamite", game.Answer{Fault: &game.Fault{Kind: game.FaultNone, Detail: "?"}})
	if a.Fault.Kind != game.FaultGarbage || a.Action != nil {
		t.Errorf("a fault of kind none: %+v", a)
	}
}

// TestClockOneParser: the runner and the engine read the clock from Spec.Clock, so a clock
// under a millisecond is that clock (it used to become the runner's default), and a game
// without the parameter keeps its default.
func TestClockOneParser(t *testing.T) {
	t.Parallel()
	s := game.Spec{Name: "g", ClockMs: 120_000, Params: []game.Param{{Name: "clock", Default: "120"}}}
	for v, want := range map[string]time.Duration{"0.0005": 500 * time.Microsecond, "2.5": 2500 * time.Millisecond, " 30 ": 30 * time.Second} {
		if d, err := s.Clock(game.Config{Params: map[string]string{"clock": v}}); err != nil || d != want {
			t.Errorf("clock=%q: %v %v, want %v", v, d, err, want)
		}
	}
	for _, v := range []string{"0", "-1", "soon", "NaN", "1e-12", "2000000"} {
		if _, err := s.Clock(game.Config{Params: map[string]string{"clock": v}}); !errors.Is(err, game.ErrParam) {
			t.Errorf("clock=%q: %v, want ErrParam", v, err)
		}
	}
	if d, _ := s.Clock(game.Config{}); d != 120*time.Second {
		t.Errorf("default clock %v", d)
	}
	if d, _ := (game.Spec{Name: "none"}).Clock(game.Config{Params: map[string]string{"clock": "5"}}); d != 0 {
		t.Errorf("a game without a clock parameter has no clock, got %v", d)
	}
}
