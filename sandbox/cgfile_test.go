//go:build linux && !arenadegraded

package sandbox

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestCgFileReadsWithOnePread: a cgroup counter is read from its start with one system call
// per reading (os.File.ReadAt paid a second one for the end of the file on every move), and
// shows the file's text as of that reading.
func TestCgFileReadsWithOnePread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpuacct.usage")
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g := openCgFile(path)
	if g == nil {
		t.Fatal("openCgFile: nil")
	}
	defer g.close()
	// The reads are counted on this thread: RawConn.Read runs its function on the caller's.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	const n = 50
	before := threadReads(t)
	for range n {
		if ok := g.text(func(text []byte) {
			if string(text) != "12345\n" {
				t.Fatalf("read %q, want %q", text, "12345\n")
			}
		}); !ok {
			t.Fatal("text: not read")
		}
	}
	// threadReads itself reads /proc (two read system calls, one more to find the end).
	if got := threadReads(t) - before; got > n+4 {
		t.Errorf("%d read system calls for %d readings, want one each", got, n)
	}
	if err := os.WriteFile(path, []byte("678\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var now []byte
	g.text(func(text []byte) { now = bytes.Clone(text) })
	if string(now) != "678\n" {
		t.Errorf("after a change read %q, want %q", now, "678\n")
	}
	g.close()
	if g.text(func([]byte) { t.Error("a closed file was read") }) {
		t.Error("text of a closed file: ok")
	}
}

// threadReads is this thread's count of read system calls (syscr of /proc/thread-self/io).
func threadReads(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/thread-self/io")
	if err != nil {
		t.Fatalf("%v (the kernel needs task I/O accounting for this test)", err)
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("syscr: ")); ok {
			return keyedValue(append([]byte("n "), v...), "n")
		}
	}
	t.Fatalf("no syscr in /proc/thread-self/io:\n%s", b)
	return 0
}
