//go:build !linux

package bridge

import "os"

// pipe is os.Pipe where the blocking pipe of pipe_linux.go is not made.
func pipe() (r, w *os.File, err error) { return os.Pipe() }
