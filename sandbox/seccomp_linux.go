//go:build !arenadegraded

package sandbox

import (
	"fmt"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// seccompKill lists system calls that no bot has any business making. A bot that tries one is
// killed on the spot with SIGSYS, which the arena reports as "forbidden system call".
var seccompKill = append([]uintptr{
	unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD,
	unix.SYS_PROCESS_MADVISE, unix.SYS_KCMP,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
	unix.SYS_MOUNT, unix.SYS_UMOUNT2, unix.SYS_PIVOT_ROOT, unix.SYS_CHROOT, unix.SYS_MOVE_MOUNT,
	unix.SYS_OPEN_TREE, unix.SYS_FSOPEN, unix.SYS_FSCONFIG, unix.SYS_FSMOUNT, unix.SYS_FSPICK,
	unix.SYS_MOUNT_SETATTR, unix.SYS_SETNS, unix.SYS_UNSHARE,
	unix.SYS_KEXEC_LOAD, unix.SYS_KEXEC_FILE_LOAD, unix.SYS_INIT_MODULE, unix.SYS_FINIT_MODULE,
	unix.SYS_DELETE_MODULE, unix.SYS_REBOOT, unix.SYS_SWAPON, unix.SYS_SWAPOFF, unix.SYS_ACCT,
	unix.SYS_QUOTACTL, unix.SYS_BPF, unix.SYS_PERF_EVENT_OPEN, unix.SYS_FANOTIFY_INIT,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_USERFAULTFD, unix.SYS_OPEN_BY_HANDLE_AT, unix.SYS_NAME_TO_HANDLE_AT,
	unix.SYS_SYSLOG, unix.SYS_VHANGUP, unix.SYS_SETTIMEOFDAY, unix.SYS_CLOCK_SETTIME,
	unix.SYS_CLOCK_ADJTIME, unix.SYS_ADJTIMEX, unix.SYS_SETHOSTNAME, unix.SYS_SETDOMAINNAME,
}, archKill...)

// Socket families a bot may open: unix (the plugin socket) and IP (which meets an empty
// network namespace). Everything else (netlink, packet, vsock, bluetooth, alg, ...) fails.
var socketAllowed = []uint32{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6}

// cloneNewNS are the clone flags that would make a new namespace.
const cloneNewNS = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS | unix.CLONE_NEWIPC |
	unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// Offsets in struct seccomp_data.
const (
	offNR   = 0
	offArch = 4
	offArg0 = 16 // low 32 bits on little-endian machines
	offArg1 = 24
)

func stmt(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
func jump(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

const (
	retKill  = unix.SECCOMP_RET_KILL_PROCESS
	retAllow = unix.SECCOMP_RET_ALLOW
)

func retErrno(e syscall.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }

// seccompProgram builds the filter. The first check is the architecture, so a 32-bit (or, on
// amd64, x32) system call, whose numbers differ, cannot slip past the list.
func seccompProgram() []unix.SockFilter {
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
		and  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	)
	p := []unix.SockFilter{
		stmt(ld, offArch),
		jump(jeq, auditArch, 1, 0),
		stmt(ret, retKill),
		stmt(ld, offNR),
	}
	if x32Bit != 0 {
		p = append(p, jump(jge, x32Bit, 0, 1), stmt(ret, retKill))
	}
	for _, nr := range seccompKill {
		p = append(p, jump(jeq, uint32(nr), 0, 1), stmt(ret, retKill))
	}
	// clone3 passes its flags in memory the filter cannot read: make libc fall back to clone.
	p = append(p, jump(jeq, unix.SYS_CLONE3, 0, 1), stmt(ret, retErrno(unix.ENOSYS)))
	// clone: no new namespaces.
	p = append(p,
		jump(jeq, unix.SYS_CLONE, 0, 4),
		stmt(ld, cloneFlagsOff),
		jump(jset, cloneNewNS, 0, 1),
		stmt(ret, retErrno(unix.EPERM)),
		stmt(ret, retAllow),
	)
	// socket: only allowed families, and no raw or packet sockets of those.
	p = append(p, jump(jeq, unix.SYS_SOCKET, 0, uint8(len(socketAllowed)+6)), stmt(ld, offArg0))
	for i := range socketAllowed {
		p = append(p, jump(jeq, socketAllowed[i], uint8(len(socketAllowed)-i), 0))
	}
	p = append(p,
		stmt(ret, retErrno(unix.EAFNOSUPPORT)),
		stmt(ld, offArg1),
		stmt(and, 0xf),
		jump(jeq, unix.SOCK_RAW, 0, 1),
		stmt(ret, retErrno(unix.EPERM)),
	)
	p = append(p, stmt(ret, retAllow))
	return p
}

// installSeccomp loads the filter on the calling thread; the bot forked from it inherits it.
// no_new_privs must already be set.
func installSeccomp() error {
	prog := seccompProgram()
	fp := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&fp)))
	if e != 0 {
		return fmt.Errorf("seccomp: %w", e)
	}
	return nil
}
