// Package anygame is the Go SDK's generic path: a player that plays any game of the protocol,
// given its name, with no per-game code. It sees each move's observation as the game's
// generated message (or as the JSON line a stdio bot reads) and answers the action as JSON,
// exactly as a JSON-lines bot writes it:
//
//	sdk.Serve(sdk.Bot{Name: "echo", Games: anygame.PlayAll(func() anygame.Player {
//		return anygame.Func(func(s *anygame.State) ([]byte, error) { return []byte(`{}`), nil })
//	})})
//
// Games (generated from the protos by internal/kitgen) lists every game, so a game added to
// the protocol is played by such a bot without a line of its own. The per-game packages
// (sdk/dynamite, ...) remain the idiomatic layer with each game's history and helpers.
package anygame
