package dynamite_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/dynamite"
)

var harness = gametest.Harness{Spec: dynamite.Spec, Legal: dynamite.RandomLegal, MaxSteps: 2500}

func TestContract(t *testing.T) { gametest.Run(t, harness) }

func FuzzDynamite(f *testing.F) { gametest.Fuzz(f, harness) }
