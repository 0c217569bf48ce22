// Command scissors is a dynamite house bot; see package dynamitebots.
package main

import (
	dynamitebots "github.com/botarena/arena/bots/dynamite"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(dynamitebots.Scissors()) }
