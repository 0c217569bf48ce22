// Command garbage is a hostile bot that writes binary garbage, with no newline, instead of a
// handshake, then keeps writing.
package main

import "os"

func main() {
	buf := make([]byte, 1<<16)
	for i := range buf {
		buf[i] = byte(i*7 + 3)
		if buf[i] == '\n' {
			buf[i] = 0
		}
	}
	for {
		if _, err := os.Stdout.Write(buf); err != nil {
			return
		}
	}
}
