//go:build !arenadegraded

package sandbox

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// fixer words, for each missing layer, the command that would give it on this machine: the
// arena's own command line run as root, under a delegated systemd unit, with a kernel
// setting, or with the container flags it lacks.
type fixer struct {
	args []string // the arena's command line, as typed
	root bool
	// systemd runs the machine; userManager: a systemd user manager runs for this user.
	systemd, userManager bool
	container            bool
	readFile             func(string) ([]byte, error)
}

func thisFixer() *fixer {
	f := &fixer{args: os.Args, root: os.Geteuid() == 0, systemd: runsSystemd(), readFile: os.ReadFile}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		_, err := os.Stat(d + "/systemd")
		f.userManager = err == nil
	}
	for _, p := range []string{"/.dockerenv", "/run/.containerenv"} {
		if _, err := os.Stat(p); err == nil {
			f.container = true
		}
	}
	if os.Getenv("container") != "" || os.Getenv("KUBERNETES_SERVICE_HOST") != "" {
		f.container = true
	}
	return f
}

// command is the arena's command line, quoted for a shell.
func (f *fixer) command() string {
	if f == nil || len(f.args) == 0 {
		return "arena sandbox check"
	}
	q := make([]string, len(f.args))
	for i, a := range f.args {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (f *fixer) sudo() string { return "sudo " + f.command() }

// delegatedUnit runs the arena in a systemd scope whose cgroup subtree is its own.
func (f *fixer) delegatedUnit() string {
	if f.root {
		return "systemd-run --scope -p Delegate=yes -- " + f.command()
	}
	return "systemd-run --user --scope -p Delegate=yes -- " + f.command()
}

// containerFlags is what a container runtime must give the arena inside it.
const containerFlags = "docker run --cgroupns=private --privileged (Docker mounts /sys/fs/cgroup read-only otherwise; any runtime works that gives a private cgroup namespace and a writable cgroup filesystem)"

// cgroupV2 is the fix for cgroup v2 refusing the arena its controllers.
func (f *fixer) cgroupV2(err error) string {
	switch {
	case errors.Is(err, syscall.EROFS):
		return containerFlags
	case !f.root && f.systemd && f.userManager:
		return f.delegatedUnit()
	case !f.root:
		return f.sudo()
	case f.container:
		return containerFlags
	case errors.Is(err, errNoControllers):
		return "the kernel offers no memory, pids or cpu controller: boot with systemd.unified_cgroup_hierarchy=1 and without cgroup_disable= for them"
	case f.systemd:
		return f.delegatedUnit()
	}
	return "run the arena in a cgroup of its own that holds no other process: mkdir /sys/fs/cgroup/arena && echo $$ > /sys/fs/cgroup/arena/cgroup.procs && " + f.command()
}

// cgroupV1 is the fix for a cgroup v1 hierarchy the arena cannot write.
func (f *fixer) cgroupV1(err error) string {
	switch {
	case errors.Is(err, syscall.EROFS):
		return containerFlags
	case !f.root && f.systemd:
		return f.sudo() + " (cgroup v1 delegates nothing to users; or boot with systemd.unified_cgroup_hierarchy=1 and use " + f.delegatedUnit() + ")"
	case !f.root:
		return f.sudo()
	case f.container:
		return containerFlags
	}
	return "mount the cgroup hierarchies read-write"
}

func (f *fixer) mountCgroups() string {
	return "mount -t cgroup2 none /sys/fs/cgroup"
}

// delegateControllers makes systemd hand every user manager the memory, pids and cpu
// controllers (older systemd delegates only memory and pids, or nothing).
func (f *fixer) delegateControllers() string {
	if f.root {
		return f.delegatedUnit()
	}
	return `sudo mkdir -p /etc/systemd/system/user@.service.d && printf '[Service]\nDelegate=cpu cpuset io memory pids\n' | sudo tee /etc/systemd/system/user@.service.d/delegate.conf && sudo systemctl daemon-reload (then log in again)`
}

// userNamespaces is the fix for a kernel that refuses unprivileged user namespaces.
func (f *fixer) userNamespaces() string {
	read := func(p string) string {
		b, err := f.readFile(p)
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(b))
	}
	switch {
	case read("/proc/sys/kernel/apparmor_restrict_unprivileged_userns") == "1":
		return "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"
	case read("/proc/sys/kernel/unprivileged_userns_clone") == "0":
		return "sudo sysctl -w kernel.unprivileged_userns_clone=1"
	case read("/proc/sys/user/max_user_namespaces") == "0":
		return "sudo sysctl -w user.max_user_namespaces=15000"
	case f.container:
		return containerFlags + " --security-opt seccomp=unconfined --security-opt apparmor=unconfined"
	}
	return "a kernel with CONFIG_USER_NS"
}

// landlock is the fix for a kernel without Landlock.
func (f *fixer) landlock(err error) string {
	if errors.Is(err, syscall.ENOSYS) {
		return "upgrade to Linux 5.13 or later (6.7 adds TCP rules, 6.12 signal scoping)"
	}
	if b, rerr := f.readFile("/sys/kernel/security/lsm"); rerr == nil {
		lsm := strings.TrimSpace(string(b))
		if !strings.Contains(","+lsm+",", ",landlock,") {
			return "add lsm=landlock," + lsm + " to the kernel command line (GRUB_CMDLINE_LINUX in /etc/default/grub, then sudo update-grub and reboot)"
		}
	}
	return "add lsm=landlock to the kernel command line"
}
