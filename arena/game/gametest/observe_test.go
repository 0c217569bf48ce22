package gametest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/games/dynamite"
	"github.com/botarena/arena/arena/replay"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// A seat that was sent anything but the engine's observation fails the playthrough when the
// game has no clock; with a clock the engine's (every answer taking no time) is printed.
func TestObservationsAreTheEngines(t *testing.T) {
	t.Parallel()
	eng, err := dynamite.Spec.New(game.Config{Seed: 1, Players: []game.Player{{Name: "a"}, {Name: "b"}}})
	if err != nil {
		t.Fatal(err)
	}
	var want arenav1.ActRequest
	eng.Observe(0, &want)
	wantText, err := observationText(&want)
	if err != nil {
		t.Fatal(err)
	}
	answers := []game.Answer{{Seat: 0}, {Seat: 1}}
	for _, exact := range []bool{true, false} {
		var o observations
		o.note(&arenav1.ActRequest{Step: 1, Seat: 0, Observation: &arenav1.ActRequest_Dynamite{Dynamite: &arenav1.DynamiteObservation{Round: 99}}})
		var out bytes.Buffer
		o.before(&out, exact)(replay.Step{N: 1}, eng, answers)
		if exact && (o.err == nil || !strings.Contains(o.err.Error(), `step 1 seat 0 observed {"dynamite":{"round":99}}`)) {
			t.Errorf("a changed observation passed: %v", o.err)
		}
		if !exact && o.err != nil {
			t.Errorf("with a clock: %v", o.err)
		}
		// Seat 1 was not asked (its player was gone): no line for it.
		if got := out.String(); got != "    1  a sees "+wantText+"\n" {
			t.Errorf("exact %v: printed %q, want the engine's observation of seat 0 alone", exact, got)
		}
	}
}
