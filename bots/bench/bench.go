package benchbots

import (
	"github.com/botarena/arena/sdk"
	"github.com/botarena/arena/sdk/dynamite"
)

// Rock always plays rock: two of them draw every round, so a dynamite match runs to its round cap.
func Rock() sdk.Bot {
	return sdk.Bot{Name: "rock", Author: "bench", Version: "1",
		Games: []sdk.Game{dynamite.Play(func() dynamite.Player {
			return dynamite.Func(func(*dynamite.State) dynamite.Move { return dynamite.Rock })
		})}}
}
