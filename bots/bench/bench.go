package benchbots

import "github.com/botarena/arena/sdk"

// Rock always plays rock: two of them draw every round, so a dynamite match runs to its round cap.
func Rock() sdk.Bot {
	return sdk.Bot{Name: "rock", Author: "bench", Version: "1",
		Dynamite: func() sdk.DynamitePlayer {
			return sdk.DynamiteFunc(func(*sdk.DynamiteState) sdk.DynamiteMove { return sdk.Rock })
		}}
}
