package attack

import "syscall"

// ptraceAttach tries to trace pid (the seccomp filter kills the bot for it).
func ptraceAttach(pid int) error {
	_, _, e := syscall.RawSyscall(syscall.SYS_PTRACE, syscall.PTRACE_ATTACH, uintptr(pid), 0)
	if e != 0 {
		return e
	}
	return nil
}
