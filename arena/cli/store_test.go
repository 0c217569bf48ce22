//go:build linux

package cli_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/botarena/arena/arena/cli"
)

// roHelperEnv makes the test binary a helper: it mounts the folder named by the variable
// read-only in its own mount namespace, then runs the arena command line given after "--".
const roHelperEnv = "ARENA_TEST_READONLY_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(roHelperEnv); dir != "" {
		os.Exit(readOnlyHelper(dir))
	}
	os.Exit(m.Run())
}

func readOnlyHelper(dir string) int {
	if err := syscall.Mount(dir, dir, "", syscall.MS_BIND, ""); err != nil {
		fmt.Fprintln(os.Stderr, "helper: bind mount:", err)
		return 99
	}
	if err := syscall.Mount("", dir, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		fmt.Fprintln(os.Stderr, "helper: read-only remount:", err)
		return 99
	}
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil || !strings.Contains(err.Error(), "read-only") {
		f.Close()
		fmt.Fprintln(os.Stderr, "helper: the folder is still writable:", err)
		return 99
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	return cli.Main(args, os.Stdout, os.Stdout)
}

// runReadOnly runs the arena with dir read-only: as root on a read-only bind mount in a private
// mount namespace (root ignores permission bits, not a read-only mount), otherwise in a folder
// without write permission.
func runReadOnly(t *testing.T, dir string, args ...string) (int, string) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(dir, 0o755)
		return run(t, args...)
	}
	cmd := exec.Command(os.Args[0], append([]string{"--"}, args...)...)
	cmd.Env = append(os.Environ(), roHelperEnv+"="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Unshareflags: syscall.CLONE_NEWNS}
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	if code == 99 {
		t.Fatalf("helper could not make %s read-only:\n%s", dir, out)
	}
	return code, string(out)
}

// TestShowReadsReadOnlyStore plays a real tournament, then reads its store from a read-only
// folder: arena show and arena store backup work and write nothing; a tournament there is
// refused with the file and the fix.
func TestShowReadsReadOnlyStore(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	paper, scissors := filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors")
	code, out := run(t, "tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5", "--plain", "--jobs", "1", "--target", "20", "--clock-mode", "wall", paper, scissors)
	if code != 0 {
		t.Fatalf("tournament (exit %d):\n%s", code, out)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	code, out = runReadOnly(t, dir, "show", db)
	if code != 0 || !strings.Contains(out, "2/2") || !strings.Contains(out, "finished") {
		t.Fatalf("show list on a read-only folder (exit %d):\n%s", code, out)
	}
	code, out = runReadOnly(t, dir, "show", db, "t", "--matches")
	if code != 0 || !strings.Contains(out, "scissors") || !strings.Contains(out, "rank") {
		t.Fatalf("show standings on a read-only folder (exit %d):\n%s", code, out)
	}
	code, out = runReadOnly(t, dir, "show", db, "t", "--match", "0", "--turns")
	if code != 0 || !strings.Contains(out, "the recorded result is confirmed") || !strings.Contains(out, "on the wall clock") {
		t.Fatalf("show match on a read-only folder, with its clock (exit %d):\n%s", code, out)
	}
	copyDir := t.TempDir()
	code, out = runReadOnly(t, dir, "store", "backup", db, filepath.Join(copyDir, "copy.db"))
	if code != 0 || !strings.Contains(out, "checked") {
		t.Fatalf("backup from a read-only folder (exit %d):\n%s", code, out)
	}
	code, out = runReadOnly(t, dir, "tournament", "--resume", "t", "--store", db)
	if code == 0 || !strings.Contains(out, db) || !strings.Contains(out, "writable folder") {
		t.Fatalf("tournament in a read-only folder (exit %d):\n%s", code, out)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(after, before) {
		t.Fatal("the store changed")
	}
	// The copy is a complete store: it shows the same tournament.
	code, out = run(t, "show", filepath.Join(copyDir, "copy.db"), "t")
	if code != 0 || !strings.Contains(out, "scissors") {
		t.Fatalf("show of the backup (exit %d):\n%s", code, out)
	}
	code, out = run(t, "store", "check", filepath.Join(copyDir, "copy.db"))
	if code != 0 || !strings.Contains(out, "ok") {
		t.Fatalf("store check of the backup (exit %d):\n%s", code, out)
	}
}

// TestDamagedStoreNamedWithFix: a store with damaged pages is refused by every command that
// opens it, with the file and the fix, and not written.
func TestDamagedStoreNamedWithFix(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	db := filepath.Join(dir, "t.db")
	paper, scissors := filepath.Join(root, "bots/dynamite/cmd/paper"), filepath.Join(root, "bots/dynamite/cmd/scissors")
	if code, out := run(t, "tournament", "dynamite", "--store", db, "--name", "t", "--seed", "5", "--plain", "--jobs", "1", "--target", "20", "--clock-mode", "wall", paper, scissors); code != 0 {
		t.Fatalf("tournament (exit %d):\n%s", code, out)
	}
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	for off := 4096; off+4096 <= len(b); off += 4096 {
		for i := 3; i < 12; i++ {
			b[off+i] ^= 0x5a
		}
	}
	os.WriteFile(db, b, 0o644)
	for _, args := range [][]string{
		{"show", db},
		{"tournament", "--resume", "t", "--store", db},
		{"tournament", "dynamite", "--store", db, paper, scissors},
		{"store", "backup", db, filepath.Join(dir, "copy.db")},
		{"store", "check", db},
	} {
		code, out := run(t, args...)
		if code != 1 || !strings.Contains(out, db) || !strings.Contains(out, "damaged") || !strings.Contains(out, "backup") {
			t.Errorf("%v (exit %d):\n%s", args, code, out)
		}
		if got, _ := os.ReadFile(db); !bytes.Equal(got, b) {
			t.Fatalf("%v wrote to the damaged store", args)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "copy.db")); err == nil {
		t.Error("a backup of a damaged store was written")
	}
}
