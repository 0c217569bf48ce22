//go:build linux && !arenadegraded

package sandbox

import (
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A bot that takes every inotify instance it can must not take root's: its user namespace is
// owned by its own uid, so the kernel charges that uid.
func TestInotifyChargedToTheBot(t *testing.T) {
	need(t, LayerUserNS, LayerUID)
	r := start(t, "inotify:100000", Limits{OpenFiles: 4096})
	l := r.line(t, "inotify held", 20*time.Second)
	t.Log(l)
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		t.Fatalf("root cannot create an inotify instance while a bot holds its own (%s): %v", l, err)
	}
	_ = unix.Close(fd)
	if !strings.Contains(l, "too many open files") {
		t.Fatalf("the bot was not stopped by its own per-user limit: %s", l)
	}
}

// Nothing the bot reads under /proc/self names the arena's state, its work dir or the host's
// cgroups.
func TestProcSelfShowsNoHostPath(t *testing.T) {
	need(t, LayerCgroupNS, LayerMountNS)
	for _, f := range []string{"/proc/self/cgroup", "/proc/self/mountinfo"} {
		var work string
		out, _ := act(t, "cat:"+f, Limits{}, func(s *Spec) { s.WorkAt, work = "/work", s.WorkDir })
		if strings.Contains(out, "fail:") {
			t.Fatalf("%s: %s", f, out)
		}
		for _, host := range []string{stateDir(), "arena-sandbox", "process_api", work} {
			if strings.Contains(out, host) {
				t.Errorf("%s shows the host path %q:\n%s", f, host, out)
			}
		}
	}
}
