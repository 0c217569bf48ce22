// Command arena runs bot competitions; see README.md.
package main

import (
	"os"

	"github.com/botarena/arena/arena/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr)) }
