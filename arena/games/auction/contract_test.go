package auction_test

import (
	"testing"

	"github.com/botarena/arena/arena/game/gametest"
	"github.com/botarena/arena/arena/games/auction"
)

var harness = gametest.Harness{Spec: auction.Spec, Legal: auction.RandomLegal, Players: []int{2, 3, 5, 12}, MaxSteps: 1000}

func TestContract(t *testing.T) { gametest.Run(t, harness) }

func FuzzAuction(f *testing.F) { gametest.Fuzz(f, harness) }
