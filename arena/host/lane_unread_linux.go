package host

import "golang.org/x/sys/unix"

// unread reports whether the bot has written bytes the host has not read yet (SIOCINQ): the
// CPU clock's question while the host is late (clockWatch.answerPending). It takes no lock
// but the descriptor's, so the clock's poll may ask it under its own.
func (l *lane) unread() bool {
	if !l.acquire() {
		return false
	}
	defer l.release()
	n, err := unix.IoctlGetInt(l.fd, unix.SIOCINQ)
	return err == nil && n > 0
}
