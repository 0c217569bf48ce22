//go:build !arenadegraded

package sandbox

import "golang.org/x/sys/unix"

const (
	auditArch = unix.AUDIT_ARCH_X86_64
	// x32Bit marks x32 system calls, which share the x86-64 audit arch: refuse them all.
	x32Bit        = 0x40000000
	cloneFlagsOff = offArg0
)

var archKill = []uintptr{
	unix.SYS_IOPL, unix.SYS_IOPERM, unix.SYS_USELIB, unix.SYS_CREATE_MODULE, unix.SYS_GET_KERNEL_SYMS,
	unix.SYS_QUERY_MODULE, unix.SYS_NFSSERVCTL, unix.SYS_LOOKUP_DCOOKIE,
}
