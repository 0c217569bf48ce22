// Command schemer is a Real TV house bot script; see package realtvbots.
package main

import (
	realtvbots "github.com/botarena/arena/bots/realtv"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(realtvbots.Schemer()) }
