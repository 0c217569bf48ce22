package bridge

import (
	"os"
	"syscall"
)

// pipe is os.Pipe with blocking descriptors: the bridge reads the program's answer with a plain
// read(2) on the caller's thread, as the lane does, instead of parking in Go's netpoller and
// being woken by it (epoll and a scheduler hand-off on every move, issue 23's profile).
// Close-on-exec from the start (pipe2), so no other fork inherits them.
func pipe() (r, w *os.File, err error) {
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
		return nil, nil, os.NewSyscallError("pipe2", err)
	}
	return os.NewFile(uintptr(p[0]), "|0"), os.NewFile(uintptr(p[1]), "|1"), nil
}
