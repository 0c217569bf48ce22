// Command finger is the smallest readable finger bot: it knocks out an opponent's hand when a
// hit can, and otherwise plays its first legal move.
package main

import "github.com/botarena/arena/sdk"

func move(s *sdk.FingerState) sdk.FingerMove {
	// For each hit: how many fingers attack, and how many the target hand already has.
	attack := map[sdk.FingerMove]int{sdk.LeftToLeft: s.OwnLeft, sdk.LeftToRight: s.OwnLeft,
		sdk.RightToLeft: s.OwnRight, sdk.RightToRight: s.OwnRight}
	target := map[sdk.FingerMove]int{sdk.LeftToLeft: s.OpponentLeft, sdk.LeftToRight: s.OpponentRight,
		sdk.RightToLeft: s.OpponentLeft, sdk.RightToRight: s.OpponentRight}

	moves := s.LegalMoves() // hits first, then switches; never empty
	for _, m := range moves {
		if m.Kind != sdk.FingerSwitch && attack[m]+target[m] >= 5 {
			return m // that hand reaches 5 and is lost
		}
	}
	return moves[0]
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-finger", Finger: func() sdk.FingerPlayer { return sdk.FingerFunc(move) }})
}
