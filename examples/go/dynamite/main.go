// Command dynamite is the smallest readable Go dynamite bot: it spends dynamite when a draw has
// raised the stake, and otherwise beats the opponent's last throw.
package main

import "github.com/botarena/arena/sdk"

// beats answers each throw with the one that beats it.
var beats = map[sdk.DynamiteMove]sdk.DynamiteMove{
	sdk.Rock: sdk.Paper, sdk.Paper: sdk.Scissors, sdk.Scissors: sdk.Rock,
	sdk.Dynamite: sdk.Water, sdk.Water: sdk.Rock,
}

func move(s *sdk.DynamiteState) sdk.DynamiteMove {
	if s.Stake > 1 && s.OwnDynamiteLeft > 0 {
		return sdk.Dynamite
	}
	if len(s.Rounds) == 0 {
		return sdk.Rock
	}
	return beats[s.Rounds[len(s.Rounds)-1].Opponent]
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-dynamite", Author: "arena examples",
		Dynamite: func() sdk.DynamitePlayer { return sdk.DynamiteFunc(move) }})
}
