// Command arena-bridge runs a stdio bot program behind the arena's gRPC plugin contract:
//
//	arena-bridge -- program [args...]
//
// The arena starts it inside the bot's sandbox; it is not meant to be run by hand.
package main

import (
	"fmt"
	"os"

	"github.com/botarena/arena/arena/bridge"
)

func main() {
	args := os.Args[1:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: arena-bridge -- program [args...] (the arena starts it in front of a stdio bot)")
		os.Exit(2)
	}
	os.Exit(bridge.Main(args))
}
