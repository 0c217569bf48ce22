// Command peer is the bench's anchor, a minimal stdio referee's bot (what a Halite or
// CodinGame bot costs): it reads one line per move from the pipe IN and answers one line on
// the pipe OUT, with nothing in between. The pipes are its stdin and stdout in effect (the
// sandbox gives a bot no stdin, so the host makes two named pipes in its work dir), read and
// written with plain blocking system calls, as a C or Python bot would: not through Go's
// netpoller. The bench runs it in the same sandbox as a real bot, so the arena's figures read
// as multiples of it (arena/bench, peer.go).
package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: peer IN OUT (the pipes the host writes one line per move to and reads the answers from)")
		os.Exit(2)
	}
	if err := serve(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
}

func serve(inPath, outPath string) error {
	// IN appears last, so OUT is there once IN is.
	in, err := openWhenThere(inPath)
	if err != nil {
		return err
	}
	out, err := syscall.Open(outPath, syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("%s: %w", outPath, err)
	}
	answer := []byte("R\n")
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(in, buf)
		if err == syscall.EINTR {
			continue
		}
		if n <= 0 || err != nil {
			return nil // the host is gone
		}
		for range bytes.Count(buf[:n], []byte{'\n'}) {
			if _, err := syscall.Write(out, answer); err != nil {
				return nil
			}
		}
	}
}

// openWhenThere opens the pipe, which the host makes once the sandbox is up.
func openWhenThere(path string) (int, error) {
	for deadline := time.Now().Add(10 * time.Second); ; {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if !errors.Is(err, syscall.ENOENT) || time.Now().After(deadline) {
			if err != nil {
				return -1, fmt.Errorf("%s: %w", path, err)
			}
			return fd, nil
		}
		time.Sleep(time.Millisecond)
	}
}
