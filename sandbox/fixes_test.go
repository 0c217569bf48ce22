//go:build linux && !arenadegraded

package sandbox

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// Each missing layer's fix is a command for this situation: the user's own command line under
// sudo or a delegated unit, the container flags only where the container is the cause.
func TestFixCommands(t *testing.T) {
	none := func(string) ([]byte, error) { return nil, syscall.ENOENT }
	files := func(m map[string]string) func(string) ([]byte, error) {
		return func(p string) ([]byte, error) {
			if v, ok := m[p]; ok {
				return []byte(v + "\n"), nil
			}
			return nil, syscall.ENOENT
		}
	}
	args := []string{"/usr/local/bin/arena", "play", "my bot", "it's"}
	cmd := `/usr/local/bin/arena play 'my bot' 'it'\''s'`
	for _, tc := range []struct {
		name string
		f    fixer
		got  func(f *fixer) string
		want string
	}{
		{"user on a systemd laptop, cgroup v2", fixer{systemd: true, userManager: true},
			func(f *fixer) string { return f.cgroupV2(syscall.EACCES) }, "systemd-run --user --scope -p Delegate=yes -- " + cmd},
		{"user in a container (this CI machine)", fixer{container: true},
			func(f *fixer) string { return f.cgroupV1(syscall.EACCES) }, "sudo " + cmd},
		{"root in Docker's read-only cgroup fs", fixer{root: true, container: true},
			func(f *fixer) string { return f.cgroupV2(fmt.Errorf("mkdir: %w", syscall.EROFS)) }, "docker run --cgroupns=private --privileged"},
		{"root in a systemd session", fixer{root: true, systemd: true},
			func(f *fixer) string { return f.cgroupV2(syscall.EBUSY) }, "systemd-run --scope -p Delegate=yes -- " + cmd},
		{"root without systemd", fixer{root: true},
			func(f *fixer) string { return f.cgroupV2(syscall.EBUSY) }, "echo $$ > /sys/fs/cgroup/arena/cgroup.procs && " + cmd},
		{"Ubuntu's AppArmor userns restriction", fixer{readFile: files(map[string]string{"/proc/sys/kernel/apparmor_restrict_unprivileged_userns": "1"})},
			func(f *fixer) string { return f.userNamespaces() }, "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"},
		{"Debian's userns switch", fixer{readFile: files(map[string]string{"/proc/sys/kernel/unprivileged_userns_clone": "0"})},
			func(f *fixer) string { return f.userNamespaces() }, "sudo sysctl -w kernel.unprivileged_userns_clone=1"},
		{"Landlock not in the LSM list", fixer{readFile: files(map[string]string{"/sys/kernel/security/lsm": "lockdown,capability,yama,apparmor"})},
			func(f *fixer) string { return f.landlock(syscall.EOPNOTSUPP) }, "lsm=landlock,lockdown,capability,yama,apparmor"},
		{"a kernel before Landlock", fixer{readFile: none},
			func(f *fixer) string { return f.landlock(syscall.ENOSYS) }, "Linux 5.13"},
	} {
		f := tc.f
		f.args = args
		if f.readFile == nil {
			f.readFile = none
		}
		if got := tc.got(&f); !strings.Contains(got, tc.want) {
			t.Errorf("%s: fix %q, want %q in it", tc.name, got, tc.want)
		}
	}
}
