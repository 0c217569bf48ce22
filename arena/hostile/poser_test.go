package hostile_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botarena/arena/sandbox"
)

// poserMarker is what the poser's own bridge would print and write, had it ever run.
const poserMarker = "POSER-BRIDGE-RAN-7f3a"

// poserFiles dress a submission as the arena itself: the arena's go.mod line, copies of kit
// files, and an arena/bridge of its own (the package and the old bridge command) that prints
// the marker, writes it into the host's /tmp and exits. Before the binary carried its kits,
// the arena took such a folder for its own source, built that bridge on the host and ran it in
// front of every stdio bot.
func poserFiles(t *testing.T, dir string) {
	t.Helper()
	for rel, text := range map[string]string{
		"go.mod":                                "module github.com/botarena/arena\n\ngo 1.26\n",
		"arena/bridge/bridge.go":                "package bridge\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Main is the poser's bridge.\nfunc Main(argv []string) int {\n\tfmt.Fprintln(os.Stderr, \"" + poserMarker + "\")\n\t_ = os.WriteFile(\"/tmp/" + poserMarker + "\", []byte(\"ran\"), 0o644)\n\treturn 7\n}\n",
		"arena/bridge/cmd/arena-bridge/main.go": "package main\n\nimport (\n\t\"os\"\n\n\t\"github.com/botarena/arena/arena/bridge\"\n)\n\nfunc main() { os.Exit(bridge.Main(os.Args[1:])) }\n",
		"arena/cmd/arena/main.go":               "package main\n\nimport (\n\t\"os\"\n\n\t\"github.com/botarena/arena/arena/bridge\"\n)\n\nfunc main() { os.Exit(bridge.Main(os.Args[1:])) }\n",
	} {
		write(t, dir, rel, text)
	}
	for _, rel := range []string{"go.sum", "sdk/bot.go", "sdk/doc.go", "sdk/handshake/handshake.go"} {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, rel, string(b))
	}
}

// watchFolder reports every process that has its working directory in dir and runs outside a
// sandbox: in this process's mount namespace, and not this test binary itself (which started
// there, and whose sandbox inits start there before they leave for their own root).
func watchFolder(t *testing.T, dir string) (stop func() []string) {
	t.Helper()
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		t.Fatal(err)
	}
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil {
		t.Fatal(err)
	}
	quit, done := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	var found []string
	go func() {
		defer close(done)
		for {
			select {
			case <-quit:
				return
			default:
			}
			ents, _ := os.ReadDir("/proc")
			for _, e := range ents {
				pid := e.Name()
				if _, err := strconv.Atoi(pid); err != nil {
					continue
				}
				cwd, err := os.Readlink("/proc/" + pid + "/cwd")
				if err != nil || (cwd != dir && !strings.HasPrefix(cwd, dir+"/")) {
					continue
				}
				if n, _ := os.Readlink("/proc/" + pid + "/ns/mnt"); n != ns {
					continue
				}
				if st, err := os.Stat("/proc/" + pid + "/exe"); err == nil && os.SameFile(st, self) {
					continue
				}
				cmd, _ := os.ReadFile("/proc/" + pid + "/cmdline")
				mu.Lock()
				found = append(found, pid+": "+strings.ReplaceAll(string(cmd), "\x00", " "))
				mu.Unlock()
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	return func() []string {
		close(quit)
		<-done
		mu.Lock()
		defer mu.Unlock()
		return found
	}
}

// TestSubmissionPosingAsTheArena: a stdio submission carrying the arena's go.mod line, copies
// of the kit's files and a bridge of its own plays behind the genuine bridge (this binary,
// re-executed), its bridge never runs, and no process runs in its folder outside a sandbox;
// the same with this process's working directory in that folder.
func TestSubmissionPosingAsTheArena(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(dir, "poser")
	poserFiles(t, dir)
	js, err := os.ReadFile(filepath.Join(root, "examples/javascript/dynamite/bot.js"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "bot.js", string(js))
	write(t, dir, "bot.json", `{"name": "poser", "author": "mallory", "language": "javascript", "run": "node bot.js"}`)
	_ = os.Remove("/tmp/" + poserMarker)

	// The watch can fail: a host process in the folder is seen.
	stop := watchFolder(t, dir)
	sh := exec.Command("sleep", "0.3")
	sh.Dir = dir
	if err := sh.Run(); err != nil {
		t.Fatal(err)
	}
	if seen := stop(); len(seen) == 0 {
		t.Fatal("the folder watch did not see a process started in the folder")
	}

	check := func(t *testing.T, bot string) {
		stop := watchFolder(t, dir)
		o := play(t, bot, 2*time.Second, sandbox.Limits{}, "30")
		if seen := stop(); len(seen) > 0 {
			t.Errorf("processes ran in the submission's folder outside a sandbox: %v", seen)
		}
		if strings.Contains(o.log, poserMarker) {
			t.Errorf("the poser's bridge ran: its stderr shows the marker:\n%s", o.log)
		}
		if _, err := os.Stat("/tmp/" + poserMarker); err == nil {
			t.Errorf("the poser's bridge ran on the host: it wrote /tmp/%s", poserMarker)
		}
		for _, f := range o.res.Outcome.Faults {
			if f.Seat == 0 {
				t.Errorf("the poser was charged a fault (it should have played behind the genuine bridge): %+v\n%s", f, o.log)
			}
		}
		if o.res.Steps < 30 {
			t.Errorf("the match ended after %d steps: %s", o.res.Steps, o.res.Outcome.Summary)
		}
	}
	t.Run("given by path", func(t *testing.T) { check(t, dir) })
	t.Run("from its folder", func(t *testing.T) {
		t.Chdir(dir)
		check(t, dir)
	})
}
