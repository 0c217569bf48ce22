// Command arena runs bot competitions; see README.md.
package main

import (
	"os"

	"github.com/botarena/arena/arena/cli"
	"github.com/botarena/arena/sandbox"
)

func main() {
	// The sandbox re-executes this binary as the init of every bot's sandbox; in that role
	// Init never returns. (The sandbox package also calls it from its own init function.)
	sandbox.Init()
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
