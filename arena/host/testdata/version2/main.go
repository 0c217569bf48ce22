// Command version2 prints a handshake of another protocol version, then waits.
package main

import (
	"fmt"
	"os"
	"time"
)

func main() {
	fmt.Printf("1|2|unix|%s/plugin.sock|grpc|AAAA\n", os.Getenv("PLUGIN_UNIX_SOCKET_DIR"))
	time.Sleep(time.Hour)
}
