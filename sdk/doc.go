// Package sdk is the core of the Go side of the arena bot contract: Serve, the Bot a program
// serves and the Handler behind it. Each game has its own package with its typed player API
// (sdk/dynamite, sdk/finger, sdk/bidding, sdk/auction, sdk/realtv, mirroring the Python SDK's
// arena_sdk.<game>), and the go-plugin handshake shared with the host lives in sdk/handshake.
// A Go bot is a few lines:
//
//	func main() {
//		sdk.Serve(sdk.Bot{Name: "rocky", Games: []sdk.Game{
//			dynamite.Play(func() dynamite.Player { return rocky{} }),
//		}})
//	}
//
// Serve opens a fresh player (by calling the game's factory) for every seat the host opens, and
// rebuilds the full history each game's original API shows from the small per-move deltas the
// host sends.
package sdk
