package realtv_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/realtv"
)

// Ten phases keep the suite quick and still ask every seat again after step 7 (each phase opens
// with a vote of every instance), which EveryFaultKindHandled needs. An island lasts at most 11
// days of two votes each.
var harness = gametest.Harness{Spec: realtv.Spec, Legal: realtv.RandomLegal, Players: []int{1, 2, 5},
	Params: map[string]string{"phases": "10"}, MaxSteps: 10 * 22}

func TestContract(t *testing.T) { gametest.Run(t, harness) }

func FuzzRealtv(f *testing.F) { gametest.Fuzz(f, harness) }
