// Command badcert is a hostile bot whose handshake names its own socket but carries a bogus
// server certificate.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/arena/sdk/handshake"
)

func main() {
	sock := filepath.Join(os.Getenv("PLUGIN_UNIX_SOCKET_DIR"), "plugin1")
	fmt.Printf("1|%d|unix|%s|grpc|bm90LWEtY2VydGlmaWNhdGU\n", handshake.ProtocolVersion, sock)
	time.Sleep(time.Hour)
}
