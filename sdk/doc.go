// Package sdk is the Go side of the arena bot contract: the go-plugin handshake shared with
// the host, Serve, and one typed interface per game, so that a Go bot is a few lines:
//
//	func main() {
//		sdk.Serve(sdk.Bot{Name: "rocky", Dynamite: func() sdk.DynamitePlayer { return rocky{} }})
//	}
//
// Serve opens a fresh player (by calling the game's factory) for every seat the host opens, and
// rebuilds the full history each game's original API shows from the small per-move deltas the
// host sends.
package sdk
