// Command garbage writes binary junk to stdout and stderr and never handshakes properly.
package main

import (
	"math/rand/v2"
	"os"
	"time"
)

func main() {
	b := make([]byte, 1<<16)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	os.Stderr.Write(b)
	os.Stdout.Write(b)
	time.Sleep(time.Hour)
}
