package finger_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/finger"
)

// Twenty games keep the suite quick; each game is capped at max_rounds moves, so the match at
// 20*5000 steps.
var harness = gametest.Harness{Spec: finger.Spec, Legal: finger.RandomLegal,
	Params: map[string]string{"games": "20"}, MaxSteps: 20 * 5000}

func TestContract(t *testing.T) { gametest.Run(t, harness) }

func FuzzFingerContract(f *testing.F) { gametest.Fuzz(f, harness) }
