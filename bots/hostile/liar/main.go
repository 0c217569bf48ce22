// Command liar is a hostile bot that prints a well-formed handshake naming a socket outside
// its own directory (another bot's, say) and then waits.
package main

import (
	"fmt"
	"time"

	"github.com/botarena/arena/sdk/handshake"
)

func main() {
	fmt.Printf("1|%d|unix|/tmp/arena-bot-other/plugin-dir1/plugin1|grpc|MIIB\n", handshake.ProtocolVersion)
	time.Sleep(time.Hour)
}
