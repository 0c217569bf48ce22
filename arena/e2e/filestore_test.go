package e2e_test

import (
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/internal/testenv"
	"github.com/botarena/arena/internal/slack"
)

// privateStore is set in the copy of the test binary that runs in a mount namespace of its
// own, with a fresh tmpfs on the files store: nothing the test does reaches the machine's
// shared store, and the arena processes it starts share that private one.
const privateStore = "ARENA_E2E_PRIVATE_STORE"

// inPrivateStore runs the calling test again in a private mount namespace (as root), or with a
// TMPDIR of its own (not root: the store is then under TMPDIR); it returns the files store's
// path in the copy that must do the work, and "" in the one that only waited for it.
func inPrivateStore(t *testing.T) (store string, env []string) {
	t.Helper()
	if os.Geteuid() != 0 {
		tmp := t.TempDir()
		return filepath.Join(tmp, "arena-sandbox-"+strconv.Itoa(os.Geteuid()), "files"), append(os.Environ(), "TMPDIR="+tmp)
	}
	const files = "/run/arena-sandbox/files"
	if os.Getenv(privateStore) != "" {
		return files, os.Environ()
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("unshare", "-m", "--propagation", "private", "sh", "-c",
		`mkdir -p `+files+` && mount -t tmpfs -o size=4g,mode=0755 arena-test-files `+files+` && exec "$0" "$@"`,
		exe, "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), privateStore+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("in a private mount namespace:\n%s", out)
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("%v", err)
	}
	return "", nil
}

// entries lists the store's snapshots and artefacts (not build locks).
func entries(t *testing.T, store string) []string {
	t.Helper()
	var out []string
	for _, kind := range []string{"snap", "art"} {
		ents, _ := os.ReadDir(filepath.Join(store, kind))
		for _, e := range ents {
			if !strings.HasSuffix(e.Name(), ".lock") {
				out = append(out, kind+"/"+e.Name())
			}
		}
	}
	return out
}

// A tournament plays on artefacts whose last use is set hours back while it runs, the oldest
// in the store, while other arena processes add large submissions under a small --files-cap
// and collect: every one of its launches finds its files (no fault, no failed match); what no
// live process leases goes; another local user reads nothing of the store; bots (their own
// uids) still read theirs through their mounts.
func TestCollectorSparesARunningTournament(t *testing.T) {
	store, env := inPrivateStore(t)
	if store == "" {
		return
	}
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := testenv.BuildArena(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	arena := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env, cmd.Dir = env, root
		return cmd
	}
	goBot, jsBot, pyBot := "bots/dynamite/cmd/paper", "examples/javascript/dynamite", "examples/python/dynamite/bot.py"
	// Built once, as by an earlier run: a Go binary, a stdio bot's build and the bridge.
	for _, pair := range [][]string{{goBot, pyBot}, {jsBot, pyBot}} {
		if out, err := arena(append([]string{"play", "dynamite", "--seed", "1"}, pair...)...).CombinedOutput(); err != nil {
			t.Fatalf("arena play %v: %v\n%s", pair, err, out)
		}
	}
	// A submission nobody uses any more.
	stale := t.TempDir()
	bigBot(t, stale, 1<<20)
	if out, err := arena("play", "dynamite", "--seed", "1", stale, pyBot).CombinedOutput(); err != nil {
		t.Fatalf("arena play %s: %v\n%s", stale, err, out)
	}
	before := entries(t, store)

	db := filepath.Join(t.TempDir(), "a.db")
	a := testenv.Start(t, "tournament", arena("tournament", "dynamite", goBot, jsBot, pyBot, "--reps", "3", "--jobs", "1",
		"--fresh", "--plain", "--seed", "3", "--name", "t", "--store", db))
	a.WaitFor(regexp.MustCompile(`^\[.*\] .*: `), 1, 0, 5*time.Minute)
	// The worst case for the tournament: everything it uses, and the stale submission, last
	// used hours ago; the collectors below remove least recently used first.
	old := time.Now().Add(-3 * time.Hour)
	for _, e := range before {
		if err := os.Chtimes(filepath.Join(store, e), old, old); err != nil {
			t.Fatal(err)
		}
	}
	var staleEntry string
	for i := range 3 {
		big := t.TempDir()
		bigBot(t, big, 40<<20)
		out, err := arena("play", "dynamite", "--seed", "1", "--files-cap", "64", big, pyBot).CombinedOutput()
		if err != nil {
			t.Fatalf("arena play with a large bot %d: %v\n%s", i, err, out)
		}
		if i == 0 {
			// The only entry of before that the tournament does not lease.
			for _, e := range before {
				if _, err := os.Stat(filepath.Join(store, e)); err != nil {
					if staleEntry != "" {
						t.Fatalf("the collector removed %s and %s: one of them the running tournament's", staleEntry, e)
					}
					staleEntry = e
				}
			}
		}
	}
	select {
	case <-a.Done:
	case <-time.After(slack.Of(t, 10*time.Minute)):
		t.Fatal("the tournament did not finish")
	}
	if a.Err != nil || !strings.Contains(a.Output(), "played 18 matches") || strings.Contains(a.Output(), "FAILED") {
		t.Fatalf("the tournament: %v\n%s", a.Err, a.Output())
	}
	out, err := arena("show", db, "t", "--faults").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "t: 0 faults of all bots") {
		t.Fatalf("faults of the tournament (%v):\n%s", err, out)
	}
	if staleEntry == "" {
		t.Fatalf("the collectors removed nothing of %v (over a 64 MiB cap)", before)
	}
	for _, e := range before {
		if _, err := os.Stat(filepath.Join(store, e)); err != nil && e != staleEntry {
			t.Fatalf("%s, which the tournament used, is gone: %v", e, err)
		}
	}
	log, _ := os.ReadFile(filepath.Join(store, filestore.LogName))
	if !strings.Contains(string(log), "removed "+staleEntry) {
		t.Fatalf("collect.log does not name %s:\n%s", staleEntry, log)
	}
	// Nothing of the tournament's was ever removed (it would have rebuilt it meanwhile).
	for _, m := range regexp.MustCompile(`removed ((snap|art)/\S+)`).FindAllStringSubmatch(string(log), -1) {
		if m[1] != staleEntry && slices.Contains(before, m[1]) {
			t.Fatalf("the collector removed %s, which the running tournament leased:\n%s", m[1], log)
		}
	}
	t.Logf("collect.log:\n%s", log)
	if os.Geteuid() == 0 {
		st, err := os.Stat(store)
		if err != nil || st.Mode().Perm() != 0o700 {
			t.Fatalf("the files store is %v (%v), want 0700", st.Mode().Perm(), err)
		}
		var py string
		for _, e := range before {
			if m, _ := filepath.Glob(filepath.Join(store, e, "bot.py")); len(m) == 1 && e != staleEntry {
				py = m[0]
			}
		}
		out, err := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "cat", py).CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Permission denied") {
			t.Fatalf("another local user read %s: %v\n%s", py, err, out)
		}
	}
}

// bigBot writes the dynamite example bot with n bytes of random data beside it (its own hash).
func bigBot(t *testing.T, dir string, n int) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, "examples/python/dynamite/bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bot.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, n)
	_, _ = rand.Read(b)
	if err := os.WriteFile(filepath.Join(dir, "weights.bin"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
