package sandbox

import (
	"os"

	"golang.org/x/sys/unix"
)

// pipeUnread is how many bytes wait in the pipe f reads (FIONREAD, TIOCINQ in Linux's names);
// 0 when it cannot tell.
func pipeUnread(f *os.File) int {
	if f == nil {
		return 0
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	_ = rc.Control(func(fd uintptr) {
		if v, err := unix.IoctlGetInt(int(fd), unix.TIOCINQ); err == nil {
			n = v
		}
	})
	return n
}
