// Command dynamite is the smallest readable Go dynamite bot: it spends dynamite when a draw has
// raised the stake, and otherwise beats the opponent's last throw.
package main

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

// beats answers each throw with the one that beats it.
var beats = map[dynamite.Move]dynamite.Move{
	dynamite.Rock: dynamite.Paper, dynamite.Paper: dynamite.Scissors, dynamite.Scissors: dynamite.Rock,
	dynamite.Dynamite: dynamite.Water, dynamite.Water: dynamite.Rock,
}

func move(s *dynamite.State) dynamite.Move {
	if s.Stake > 1 && s.OwnDynamiteLeft > 0 {
		return dynamite.Dynamite
	}
	if len(s.Rounds) == 0 {
		return dynamite.Rock
	}
	return beats[s.Rounds[len(s.Rounds)-1].Opponent]
}

func main() {
	sdk.Serve(sdk.Bot{Name: "example-dynamite", Author: "arena examples",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player { return dynamite.Func(move) })}})
}
