package selfcpu

import (
	"syscall"
	"time"
)

// Used is the process's CPU time so far (0 where it cannot be read).
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
