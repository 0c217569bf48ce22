package upload

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type entry struct {
	name string
	body string
	typ  byte // tar type; 0 = regular file
	link string
	size int64 // zeros of this size instead of body
}

func tarOf(t *testing.T, gz bool, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w *tar.Writer
	var zw *gzip.Writer
	if gz {
		zw = gzip.NewWriter(&buf)
		w = tar.NewWriter(zw)
	} else {
		w = tar.NewWriter(&buf)
	}
	for _, e := range es {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: e.typ, Linkname: e.link}
		if e.typ == 0 {
			h.Typeflag = tar.TypeReg
			h.Size = int64(len(e.body))
			if e.size > 0 {
				h.Size = e.size
			}
		}
		if err := w.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if e.size > 0 {
			w.Write(make([]byte, e.size))
		} else {
			w.Write([]byte(e.body))
		}
	}
	w.Close()
	if zw != nil {
		zw.Close()
	}
	return buf.Bytes()
}

func zipOf(t *testing.T, es ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, e := range es {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.typ == tar.TypeSymlink {
			h.SetMode(os.ModeSymlink | 0o777)
		}
		f, err := w.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.size > 0 {
			f.Write(make([]byte, e.size))
		} else {
			f.Write([]byte(e.body))
		}
	}
	w.Close()
	return buf.Bytes()
}

func TestUnpackGood(t *testing.T) {
	t.Parallel()
	cases := map[string][]byte{
		"bot.zip":    zipOf(t, entry{name: "mybot/bot.py", body: "x = 1"}, entry{name: "mybot/lib/util.py", body: "y"}),
		"bot.tar.gz": tarOf(t, true, entry{name: "mybot/", typ: tar.TypeDir}, entry{name: "mybot/bot.py", body: "x = 1"}, entry{name: "mybot/lib/util.py", body: "y"}),
		"bot.tar":    tarOf(t, false, entry{name: "./bot.py", body: "x = 1"}, entry{name: "lib/util.py", body: "y"}),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if err := Unpack(name, data, dir, Limits{}); err != nil {
				t.Fatal(err)
			}
			if b, err := os.ReadFile(filepath.Join(dir, "bot.py")); err != nil || string(b) != "x = 1" {
				t.Fatalf("bot.py: %q %v", b, err)
			}
			if _, err := os.Stat(filepath.Join(dir, "lib", "util.py")); err != nil {
				t.Fatal(err)
			}
		})
	}
	dir := t.TempDir()
	if err := Unpack("strategy.py", []byte("def make_move(r): return 'R'"), dir, Limits{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bot.py")); err != nil {
		t.Fatalf("a lone .py file is not bot.py: %v", err)
	}
}

func TestUnpackRefuses(t *testing.T) {
	t.Parallel()
	small := Limits{Files: 5, FileBytes: 1 << 10, Total: 3 << 10}
	bomb := zipOf(t, entry{name: "zeros", size: 64 << 20}) // 64 MiB of zeros: a few KiB compressed
	cases := []struct {
		name, file string
		data       []byte
		lim        Limits
		want       error
		say        string
	}{
		{"traversal tar", "x.tar", tarOf(t, false, entry{name: "../../etc/passwd", body: "x"}), Limits{}, ErrBadEntry, "climbs out"},
		{"traversal zip", "x.zip", zipOf(t, entry{name: "a/../../b.py", body: "x"}), Limits{}, ErrBadEntry, "climbs out"},
		{"absolute", "x.tar", tarOf(t, false, entry{name: "/etc/cron.d/x", body: "x"}), Limits{}, ErrBadEntry, "absolute"},
		{"symlink tar", "x.tar", tarOf(t, false, entry{name: "bot.py", typ: tar.TypeSymlink, link: "/etc/shadow"}), Limits{}, ErrBadEntry, "symbolic link"},
		{"symlink zip", "x.zip", zipOf(t, entry{name: "bot.py", typ: tar.TypeSymlink, body: "/etc/shadow"}), Limits{}, ErrBadEntry, "symbolic link"},
		{"hard link", "x.tar", tarOf(t, false, entry{name: "a", body: "x"}, entry{name: "bot.py", typ: tar.TypeLink, link: "/etc/shadow"}), Limits{}, ErrBadEntry, "hard link"},
		{"device", "x.tar", tarOf(t, false, entry{name: "dev", typ: tar.TypeChar}), Limits{}, ErrBadEntry, "device"},
		{"fifo", "x.tar", tarOf(t, false, entry{name: "p", typ: tar.TypeFifo}), Limits{}, ErrBadEntry, "pipe"},
		{"duplicate", "x.tar", tarOf(t, false, entry{name: "bot.py", body: "a"}, entry{name: "bot.py", body: "b"}), Limits{}, ErrBadEntry, "one name"},
		{"zip bomb", "x.zip", bomb, Limits{}, ErrTooBig, "more than 8 MiB"},
		{"big file", "x.tar", tarOf(t, false, entry{name: "a", size: 2 << 10}), small, ErrTooBig, "is more than 1024 bytes"},
		{"total", "x.tar.gz", tarOf(t, true, entry{name: "a", size: 1 << 10}, entry{name: "b", size: 1 << 10}, entry{name: "c", size: 1 << 10}, entry{name: "d", size: 10}), small, ErrTooBig, "come to more than 3072 bytes"},
		{"files", "x.tar", tarOf(t, false, entry{name: "1"}, entry{name: "2"}, entry{name: "3"}, entry{name: "4"}, entry{name: "5"}, entry{name: "6"}), small, ErrTooBig, "more than 5 files"},
		{"not gzip", "x.tgz", []byte("plain"), Limits{}, ErrFormat, "gzip"},
		{"not zip", "x.zip", []byte("plain"), Limits{}, ErrFormat, "zip"},
		{"binary", "bot.exe", []byte("MZ"), Limits{}, ErrFormat, "upload a .py"},
		{"empty", "x.tar", tarOf(t, false), Limits{}, ErrFormat, "no files"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			parent := t.TempDir()
			dir := filepath.Join(parent, "v")
			os.Mkdir(dir, 0o755)
			err := Unpack(c.file, c.data, dir, c.lim)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.say) {
				t.Fatalf("Unpack = %v, want %v saying %q", err, c.want, c.say)
			}
			// Nothing was written outside dir.
			des, _ := os.ReadDir(parent)
			if len(des) != 1 {
				t.Fatalf("entries beside the folder: %v", des)
			}
		})
	}
}

// TestSandboxed: the same uploads through the sandboxed unpacker (this test binary,
// re-executed): good archives arrive whole, hostile ones are refused with the same errors and
// leave nothing behind.
func TestSandboxed(t *testing.T) {
	t.Parallel()
	u := Sandboxed{Strict: os.Getenv("ARENA_REQUIRE_SANDBOX") == "1"}
	dir := t.TempDir()
	good := zipOf(t, entry{name: "mybot/bot.py", body: "x = 1"}, entry{name: "mybot/lib/util.py", body: "y"})
	if err := u.Unpack("bot.zip", good, dir); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "bot.py")); err != nil || string(b) != "x = 1" {
		t.Fatalf("bot.py: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "lib", "util.py")); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, file string
		data       []byte
		want       error
		say        string
	}{
		{"traversal", "x.tar", tarOf(t, false, entry{name: "../../etc/passwd", body: "x"}), ErrBadEntry, "climbs out"},
		{"symlink", "x.zip", zipOf(t, entry{name: "bot.py", typ: tar.TypeSymlink, body: "/etc/shadow"}), ErrBadEntry, "symbolic link"},
		{"device", "x.tar", tarOf(t, false, entry{name: "dev", typ: tar.TypeChar}), ErrBadEntry, "device"},
		{"bomb", "x.zip", zipOf(t, entry{name: "zeros", size: 64 << 20}), ErrTooBig, "more than 8 MiB"},
		{"not zip", "x.zip", []byte("plain"), ErrFormat, "zip"},
		// A malformed archive is the author's error to fix, not "too big" (it was 413).
		{"file then folder zip", "x.zip", zipOf(t, entry{name: "a", body: "x"}, entry{name: "a/b", body: "y"}), ErrBadEntry, "a file and a folder of one name"},
		{"file then folder tar", "x.tar", tarOf(t, false, entry{name: "a", body: "x"}, entry{name: "a/b/c", body: "y"}), ErrBadEntry, "a/b/c"},
		{"truncated tar.gz", "x.tar.gz", []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3}, ErrFormat, "not a tar archive"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			parent := t.TempDir()
			dir := filepath.Join(parent, "v")
			os.Mkdir(dir, 0o755)
			err := u.Unpack(c.file, c.data, dir)
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.say) {
				t.Fatalf("Unpack = %v, want %v saying %q", err, c.want, c.say)
			}
			if des, _ := os.ReadDir(dir); len(des) != 0 {
				t.Fatalf("a refused upload left %v", des)
			}
		})
	}
}

// TestSandboxedUnpackerIsConfined stands a hostile program in for the unpacker (as if the
// archive code had a hole): it runs as a uid of its own, cannot write outside its work dir or
// reach the upload's host folder, and only its regular files come out.
func TestSandboxedUnpackerIsConfined(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 && os.Getenv("ARENA_REQUIRE_SANDBOX") != "1" {
		t.Skip("the full sandbox needs root (scripts/test.sh runs as root)")
	}
	outside := filepath.Join(t.TempDir(), "escaped")
	script := filepath.Join(t.TempDir(), "evil.sh")
	body := "#!/bin/sh\nout=$4\nid -u > \"$out/uid\"\ntouch " + outside + " 2>/dev/null\ntouch /in/written 2>/dev/null\n" +
		"ln -s /etc/shadow \"$out/link\"\necho hi > \"$out/bot.py\"\nexit 0\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err := Sandboxed{Exe: script, Strict: true, View: []string{"/bin", "/usr/bin"}}.Unpack("bot.zip", []byte("anything"), dir)
	if !errors.Is(err, ErrBadEntry) || !strings.Contains(err.Error(), "link") {
		t.Fatalf("a link from the unpacker: %v", err)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the unpacker wrote outside its sandbox")
	}
	// Without the link, its uid shows it ran as a uid of its own.
	script2 := filepath.Join(t.TempDir(), "evil2.sh")
	os.WriteFile(script2, []byte(strings.Replace(body, "ln -s", "true", 1)), 0o755)
	dir = t.TempDir()
	if err := (Sandboxed{Exe: script2, Strict: true, View: []string{"/bin", "/usr/bin"}}).Unpack("bot.zip", []byte("anything"), dir); err != nil {
		t.Fatal(err)
	}
	uid, _ := os.ReadFile(filepath.Join(dir, "uid"))
	if strings.TrimSpace(string(uid)) == "0" || len(uid) == 0 {
		t.Fatalf("the unpacker ran as uid %q", uid)
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the unpacker wrote outside its sandbox")
	}
}
