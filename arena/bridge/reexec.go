package bridge

import (
	"fmt"
	"os"
)

// Arg is the first argument with which the arena binary is re-executed as the bridge inside a
// stdio bot's sandbox: argv is [exe, Arg, "--", program, args...]. There is no bridge binary
// of its own to build or to find: whatever binary prepares a stdio bot (the arena, a test
// binary) imports this package and so is the bridge too.
const Arg = "__arena-bridge"

// init runs the bridge before anything else of the binary when it was started as one: before
// the command line is parsed, before a test binary's flags, so that neither can be in the way.
// (The sandbox's own init re-execution works the same way, see sandbox.Init.)
func init() {
	if len(os.Args) < 2 || os.Args[1] != Arg {
		return
	}
	args := os.Args[2:]
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: arena "+Arg+" -- program [args...] (the arena starts it in front of a stdio bot)")
		os.Exit(2)
	}
	os.Exit(Main(args))
}
