// Command finger is the smallest readable finger bot: it knocks out an opponent's hand when a
// hit can, and otherwise plays its first legal move.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/finger"
)

func move(s *finger.State) finger.Move {
	// For each hit: how many fingers attack, and how many the target hand already has.
	attack := map[finger.Move]int{finger.LeftToLeft: s.OwnLeft, finger.LeftToRight: s.OwnLeft,
		finger.RightToLeft: s.OwnRight, finger.RightToRight: s.OwnRight}
	target := map[finger.Move]int{finger.LeftToLeft: s.OpponentLeft, finger.LeftToRight: s.OpponentRight,
		finger.RightToLeft: s.OpponentLeft, finger.RightToRight: s.OpponentRight}

	moves := s.LegalMoves() // hits first, then switches; never empty
	for _, m := range moves {
		if m.Kind != finger.KindSwitch && attack[m]+target[m] >= 5 {
			return m // that hand reaches 5 and is lost
		}
	}
	return moves[0]
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-finger", Games: []sdk.Game{finger.Play(func() finger.Player { return finger.Func(move) })}})
}
