// Command ponder spends 30 % of each move's budget in its move and 90 % more between moves;
// see benchbots.Ponder. Charged its pondering, its second move is over its budget.
package main

import (
	benchbots "github.com/botarena/arena/bots/bench"
	"github.com/botarena/arena/sdk"
)

func main() { sdk.Serve(benchbots.Ponder(0.3, 0.9)) }
