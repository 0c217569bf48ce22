package server

import (
	"fmt"
	"testing"

	"github.com/botarena/arena/arena/store"
)

// A bot that never started faults in every game of its match, the same way: shown once.
func TestRepeatedFaultsShownOnce(t *testing.T) {
	var fs []FaultView
	for g := 1; g <= 10; g++ {
		fs = addFault(fs, FaultView{LadderFault: store.LadderFault{Seat: 0, Kind: "crash", Where: fmt.Sprintf("game %d", g),
			Detail: "bot is not running: could not start: ...", Penalty: "loses the game"}})
	}
	fs = addFault(fs, FaultView{LadderFault: store.LadderFault{Seat: 1, Kind: "timeout", Where: "game 3"}})
	if len(fs) != 2 || fs[0].Times != 10 || fs[0].Where != "game 1" || fs[0].LastWhere != "game 10" || fs[1].Times != 1 {
		t.Fatalf("%+v", fs)
	}
}
