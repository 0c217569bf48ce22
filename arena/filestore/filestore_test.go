package filestore_test

import (
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/internal/slack"
)

// The test binary doubles as an arena process on a store (a helper): FILESTORE_HELPER says
// what it does, FILESTORE_DIR which store, FILESTORE_CAP its cap in bytes.
func TestMain(m *testing.M) {
	if what := os.Getenv("FILESTORE_HELPER"); what != "" {
		os.Exit(helper(what, os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

func helper(what, arg string) int {
	if n, err := strconv.ParseInt(os.Getenv("FILESTORE_CAP"), 10, 64); err == nil {
		filestore.SetCap(n)
	}
	dir := os.Getenv("FILESTORE_DIR")
	switch what {
	case "take": // snapshot the folder arg, print its hash, exit
		src, err := submission.Parse(arg)
		if err == nil {
			var snap submission.Snapshot
			if snap, err = submission.Take(src, dir, submission.Limits{Bytes: 1 << 30}); err == nil {
				fmt.Println(snap.Hash)
				return 0
			}
		}
		fmt.Fprintln(os.Stderr, err)
		return 1
	case "hold": // lease the entry arg, say so, and live until killed
		s, err := filestore.Open(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if _, err := s.Use(arg); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Println("held")
		select {}
	}
	return 2
}

// run starts the test binary as a helper on store dir.
func run(t *testing.T, dir string, capBytes int64, what, arg string) *exec.Cmd {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$", arg)
	cmd.Env = append(os.Environ(), "FILESTORE_HELPER="+what, "FILESTORE_DIR="+dir, "FILESTORE_CAP="+strconv.FormatInt(capBytes, 10))
	return cmd
}

// submissionOf writes a folder holding bot.py and n bytes of random data: a distinct hash.
func submissionOf(t *testing.T, n int) string {
	t.Helper()
	d := t.TempDir()
	if err := os.WriteFile(filepath.Join(d, "bot.py"), []byte("# a bot\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, n)
	_, _ = rand.Read(b)
	if err := os.WriteFile(filepath.Join(d, "weights.bin"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

func take(t *testing.T, dir string, capBytes int64, src string) string {
	t.Helper()
	out, err := run(t, dir, capBytes, "take", src).Output()
	if err != nil {
		t.Fatalf("take %s: %v", src, err)
	}
	return strings.TrimSpace(string(out))
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// Many large submissions, each snapshotted by its own arena process (which then exits, like
// one arena play after another): the store never ends over its cap, and what goes is the
// least recently used, even when it was made first and used again last.
func TestManySubmissionsStayUnderCap(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	const each, capBytes = 3 << 20, 16 << 20
	srcs := make([]string, 12)
	hashes := make([]string, len(srcs))
	for i := range srcs {
		srcs[i] = submissionOf(t, each)
	}
	for i, src := range srcs {
		hashes[i] = take(t, dir, capBytes, src)
		if i == 6 {
			// The first submission plays again: it is now among the most recently used.
			if h := take(t, dir, capBytes, srcs[0]); h != hashes[0] {
				t.Fatalf("the same files took another hash: %s, then %s", hashes[0], h)
			}
		}
		s, err := filestore.Open(dir) // this process holds no lease on any of them
		if err != nil {
			t.Fatal(err)
		}
		s.SetCap(capBytes)
		if u := s.Usage(); u > capBytes {
			t.Fatalf("after submission %d the store holds %d MiB, over its cap of %d MiB", i, u>>20, capBytes>>20)
		}
	}
	kept := names(t, filepath.Join(dir, "snap"))
	if len(kept) < 2 || len(kept) > capBytes/each {
		t.Fatalf("%d snapshots kept under a cap of %d MiB (%d MiB each): %v", len(kept), capBytes>>20, each>>20, kept)
	}
	// The kept ones are the most recent: the last len(kept)-1 taken and the first one, which
	// was used again at submission 6... unless more than 5 came after it.
	order := append(append(append([]string{}, hashes[1:7]...), hashes[0]), hashes[7:]...)
	want := order[len(order)-len(kept):]
	slices.Sort(want)
	slices.Sort(kept)
	if !slices.Equal(kept, want) {
		t.Fatalf("kept %v, want the %d most recently used %v", kept, len(kept), want)
	}
	log, err := os.ReadFile(filepath.Join(dir, filestore.LogName))
	if err != nil || !strings.Contains(string(log), "removed snap/"+hashes[1]) {
		t.Fatalf("collect.log does not say the oldest (%s) was removed (%v):\n%s", hashes[1], err, log)
	}
	t.Logf("collect.log:\n%s", log)
}

// An entry leased by a live process is never removed, however old and however far over its
// cap the store is; once that process is killed (-9), its lease goes and so may the entry.
func TestLeasedEntryIsNeverCollected(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	hash := take(t, dir, 1<<30, submissionOf(t, 2<<20))
	entry := filestore.Entry("snap", hash)
	old := time.Now().Add(-5 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "snap", hash), old, old); err != nil {
		t.Fatal(err)
	}
	holder := run(t, dir, 1<<30, "hold", entry)
	out, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatal(err)
	}
	defer holder.Process.Kill()
	buf := make([]byte, 5)
	if _, err := out.Read(buf); err != nil || string(buf) != "held\n" {
		t.Fatalf("holder: %q %v", buf, err)
	}
	// Its Use marked it used now: set it back to hours ago again, the worst case for it.
	if err := os.Chtimes(filepath.Join(dir, "snap", hash), old, old); err != nil {
		t.Fatal(err)
	}
	s, err := filestore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s.SetCap(1) // everything unleased must go
	rep, err := s.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "snap", hash)); err != nil || len(rep.Removed) != 0 || rep.Leased != 1 {
		t.Fatalf("a leased entry was removed (%v): %+v", err, rep)
	}
	holder.Process.Kill()
	holder.Wait()
	rep, err = s.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "snap", hash)); err == nil || rep.DeadLeases != 1 || len(rep.Removed) != 1 {
		t.Fatalf("after its holder was killed the entry stays (%v): %+v", err, rep)
	}
	if n := names(t, filepath.Join(dir, filestore.LeasesDir)); len(n) != 1 || n[0] != s.ID() {
		t.Fatalf("leases left: %v (this process's is %s)", n, s.ID())
	}
}

// A kill -9 in the middle of a snapshot leaves a half-written folder; the next process to open
// the store removes it (its lease is dead) and nothing of that snapshot remains.
func TestKillDuringSnapshot(t *testing.T) {
	for attempt := 0; ; attempt++ {
		if attempt == 20 {
			t.Fatal("the snapshot always finished before it could be killed")
		}
		dir := filepath.Join(t.TempDir(), "files")
		if err := os.MkdirAll(filepath.Join(dir, filestore.TmpDir), 0o700); err != nil {
			t.Fatal(err)
		}
		src := t.TempDir()
		for i := range 40 {
			b := make([]byte, 4<<20)
			_, _ = rand.Read(b)
			if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("part%02d.bin", i)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(src, "bot.py"), []byte("# a bot\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := run(t, dir, 1<<40, "take", src)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill it as soon as it writes its copy.
		killed := false
		for deadline := time.Now().Add(slack.Of(t, time.Minute)); time.Now().Before(deadline); {
			if tmp := names(t, filepath.Join(dir, filestore.TmpDir)); len(tmp) > 0 {
				if ents, _ := os.ReadDir(filepath.Join(dir, filestore.TmpDir, tmp[0])); len(ents) > 0 {
					_ = cmd.Process.Kill()
					killed = true
					break
				}
			}
			if cmd.ProcessState != nil {
				break
			}
			time.Sleep(200 * time.Microsecond)
		}
		cmd.Wait()
		if !killed || len(names(t, filepath.Join(dir, "snap"))) > 0 {
			continue // it finished first: try again
		}
		if len(names(t, filepath.Join(dir, filestore.TmpDir))) == 0 || len(names(t, filepath.Join(dir, filestore.LeasesDir))) != 1 {
			t.Fatalf("the kill left no half-written snapshot and lease to clean: tmp %v, leases %v",
				names(t, filepath.Join(dir, filestore.TmpDir)), names(t, filepath.Join(dir, filestore.LeasesDir)))
		}
		killedLease := names(t, filepath.Join(dir, filestore.LeasesDir))[0]
		// The next start: another process opens the store.
		if out, err := run(t, dir, 1<<40, "take", submissionOf(t, 10)).CombinedOutput(); err != nil {
			t.Fatalf("next start: %v\n%s", err, out)
		}
		if tmp := names(t, filepath.Join(dir, filestore.TmpDir)); len(tmp) != 0 {
			t.Fatalf("after the next start the killed snapshot's folder is still there: %v", tmp)
		}
		if n := names(t, filepath.Join(dir, filestore.LeasesDir)); slices.Contains(n, killedLease) || len(n) != 1 {
			t.Fatalf("leases left: %v; the killed process's %s must be gone, the next start's stays until another collects", n, killedLease)
		}
		if n := names(t, filepath.Join(dir, "snap")); len(n) != 1 {
			t.Fatalf("snapshots: %v, want only the next start's own", n)
		}
		if u := filestore.DefaultCap(); u < 1<<30 {
			t.Fatalf("default cap %d below its floor", u)
		}
		return
	}
}

// Another local user can neither list the store nor read a submission in it, even knowing
// its path; the store is 0700 whoever runs the arena.
func TestOtherUserCannotRead(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "files")
	hash := take(t, dir, 1<<30, submissionOf(t, 100))
	st, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Fatalf("the store is %v, want 0700", st.Mode().Perm())
	}
	if os.Geteuid() != 0 {
		t.Log("not root: another user's read is not tried (the 0700 mode above is what stops it)")
		return
	}
	// The test's temp folders are walkable by others, as /run is: only the store stops them.
	for p := filepath.Dir(dir); p != "/"; p = filepath.Dir(p) {
		_ = os.Chmod(p, 0o755)
	}
	bot := filepath.Join(dir, "snap", hash, "bot.py")
	for _, args := range [][]string{{"cat", bot}, {"ls", dir}, {"ls", filepath.Join(dir, "snap")}} {
		cmd := exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err == nil || !strings.Contains(string(out), "Permission denied") {
			t.Fatalf("user 65534 ran %v: %v\n%s", args, err, out)
		}
	}
	// The arena itself still reads it.
	if _, err := os.ReadFile(bot); err != nil {
		t.Fatal(err)
	}
}
