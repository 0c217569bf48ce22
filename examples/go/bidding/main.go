// Command bidding is the smallest readable bidding bot: it spreads its money evenly over the
// rounds it still has to win.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/bidding"
)

func bid(s *bidding.State) int {
	if s.OwnMoney == 0 {
		return 0 // the only legal bid when broke
	}
	// PlacesToWin is how far the bottle still has to move toward my end (1..9).
	return max(1, s.OwnMoney/s.PlacesToWin())
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-bidding", Games: []sdk.Game{bidding.Play(func() bidding.Player { return bidding.Func(bid) })}})
}
