//go:build linux && !arenadegraded

package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/sys/unix"
)

// runBPF interprets the classic BPF subset the filter uses over one seccomp_data.
func runBPF(t *testing.T, prog []unix.SockFilter, arch uint32, nr int32, args ...uint64) uint32 {
	t.Helper()
	data := make([]byte, 64)
	binary.LittleEndian.PutUint32(data[0:], uint32(nr))
	binary.LittleEndian.PutUint32(data[4:], arch)
	for i, a := range args {
		binary.LittleEndian.PutUint64(data[16+8*i:], a)
	}
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			acc = binary.LittleEndian.Uint32(data[in.K:])
		case unix.BPF_ALU | unix.BPF_AND | unix.BPF_K:
			acc &= in.K
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			var cond bool
			switch in.Code & 0xf0 {
			case unix.BPF_JEQ:
				cond = acc == in.K
			case unix.BPF_JGE:
				cond = acc >= in.K
			case unix.BPF_JSET:
				cond = acc&in.K != 0
			}
			if cond {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %#x not interpreted", in.Code)
		}
	}
	t.Fatal("filter fell off its end")
	return 0
}

func TestSeccompProgram(t *testing.T) {
	prog := seccompProgram()
	if len(prog) > 4096 {
		t.Fatalf("filter too long: %d", len(prog))
	}
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	for _, tc := range []struct {
		name string
		arch uint32
		nr   int32
		args []uint64
		want uint32
	}{
		{"getpid", auditArch, unix.SYS_GETPID, nil, retAllow},
		{"i386 arch", unix.AUDIT_ARCH_I386, unix.SYS_GETPID, nil, retKill},
		{"arm arch", unix.AUDIT_ARCH_ARM, unix.SYS_GETPID, nil, retKill},
		{"ptrace", auditArch, unix.SYS_PTRACE, nil, retKill},
		{"keyctl", auditArch, unix.SYS_KEYCTL, nil, retKill},
		{"mount", auditArch, unix.SYS_MOUNT, nil, retKill},
		{"bpf", auditArch, unix.SYS_BPF, nil, retKill},
		{"io_uring", auditArch, unix.SYS_IO_URING_SETUP, nil, retKill},
		{"clone3", auditArch, unix.SYS_CLONE3, nil, errno(unix.ENOSYS)},
		{"clone thread", auditArch, unix.SYS_CLONE, []uint64{unix.CLONE_VM | unix.CLONE_THREAD}, retAllow},
		{"clone newuser", auditArch, unix.SYS_CLONE, []uint64{unix.CLONE_NEWUSER}, errno(unix.EPERM)},
		{"unix socket", auditArch, unix.SYS_SOCKET, []uint64{unix.AF_UNIX, unix.SOCK_STREAM}, retAllow},
		{"tcp socket", auditArch, unix.SYS_SOCKET, []uint64{unix.AF_INET6, unix.SOCK_STREAM | unix.SOCK_CLOEXEC}, retAllow},
		{"raw socket", auditArch, unix.SYS_SOCKET, []uint64{unix.AF_INET, unix.SOCK_RAW | unix.SOCK_NONBLOCK}, errno(unix.EPERM)},
		{"netlink", auditArch, unix.SYS_SOCKET, []uint64{unix.AF_NETLINK, unix.SOCK_RAW}, errno(unix.EAFNOSUPPORT)},
		{"vsock", auditArch, unix.SYS_SOCKET, []uint64{unix.AF_VSOCK, unix.SOCK_STREAM}, errno(unix.EAFNOSUPPORT)},
	} {
		if x32Bit == 0 && tc.arch != auditArch {
			continue
		}
		if got := runBPF(t, prog, tc.arch, tc.nr, tc.args...); got != tc.want {
			t.Errorf("%s: got %#x, want %#x", tc.name, got, tc.want)
		}
	}
	if x32Bit != 0 {
		if got := runBPF(t, prog, auditArch, int32(unix.SYS_GETPID|x32Bit)); got != retKill {
			t.Errorf("x32 getpid: got %#x", got)
		}
	}
}
