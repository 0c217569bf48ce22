package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initBytesLimit is the most any one package may allocate when the arena starts. The arena is
// re-executed for every bot (its sandbox's init, its bridge), so work done at start is paid per
// bot: a password hash made at start (64 MiB, 0.2 s here) took about 45 s a bot in the emulated
// VM of scripts/vm. The largest legitimate one is about 0.3 MiB.
const initBytesLimit = 4 << 20

// TestStartIsLight runs this test binary, which links every package the arena does, again with
// the runtime's init trace and fails on any package that allocates more than initBytesLimit
// before main (a bytes count, not a time: it does not depend on the machine's load).
func TestStartIsLight(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("re-running the test binary: %v\n%s", err, stderr.String())
	}
	seen := map[string]bool{}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PACKAGE @T ms, C ms clock, N bytes, A allocs
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		n, err := strconv.ParseInt(f[7], 10, 64)
		if err != nil {
			t.Fatalf("init trace line %q: %v", sc.Text(), err)
		}
		seen[f[1]] = true
		if n > initBytesLimit {
			t.Errorf("package %s allocates %d MiB when the arena starts (at most %d MiB): every bot's sandbox init and bridge pay it; make it at first use (sync.OnceValue)",
				f[1], n>>20, initBytesLimit>>20)
		}
	}
	// The trace was read: the packages that matter are in it.
	for _, pkg := range []string{"github.com/botarena/arena/arena/server", "github.com/botarena/arena/sandbox"} {
		if !seen[pkg] {
			t.Errorf("no init trace line for %s (%d packages traced): the trace's format changed?", pkg, len(seen))
		}
	}
}
