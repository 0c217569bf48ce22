package bidding_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/bidding"
)

// Twenty games of at most ten rounds each: the match is over within 200 steps.
var harness = gametest.Harness{Spec: bidding.Spec, Legal: bidding.RandomLegal,
	Params: map[string]string{"games": "20"}, MaxSteps: 20 * 10}

func TestContract(t *testing.T) { gametest.Run(t, harness) }

func FuzzBiddingContract(f *testing.F) { gametest.Fuzz(f, harness) }
