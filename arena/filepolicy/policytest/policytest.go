// Package policytest makes the trees every way files come in is judged on (arena/filepolicy):
// one good tree and one per thing a submission may not hold, each with the verdict the
// policy gives it, so a test of any entry point can check it judges each tree the same.
package policytest

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/botarena/arena/arena/filepolicy"
)

// Bounds of the trees: what each entry point is given.
const (
	Entries = 100
	Bytes   = 4 << 10
)

// Policy is the bounds as the files policy reads them.
var Policy = filepolicy.Policy{Entries: Entries, FileBytes: Bytes, Bytes: Bytes}

// Tree is a folder on disk and the policy's verdict on it.
type Tree struct {
	Name string
	Dir  string
	// Want is the policy's error (nil: the tree is accepted); Path is what its message names.
	Want error
	Path string
}

// Trees makes every tree under t's temporary folder.
func Trees(t testing.TB) []Tree {
	t.Helper()
	root := t.TempDir()
	mk := func(name string, files map[string]string, extra func(dir string) error) string {
		dir := filepath.Join(root, name)
		for rel, body := range files {
			p := filepath.Join(dir, filepath.FromSlash(rel))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if extra != nil {
			if err := extra(dir); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	bot := map[string]string{"bot.py": "print('hi')\n"}
	many, nested := map[string]string{}, map[string]string{}
	for i := range Entries + 1 {
		many[fmt.Sprintf("f%03d.py", i)] = "x\n"
	}
	// Fewer files than the bound, each in a folder of its own: over it only when folders
	// count, as they do everywhere.
	for i := range Entries/2 + 1 {
		nested[fmt.Sprintf("m%03d/bot.py", i)] = "x\n"
	}
	deep := strings.Repeat("d/", filepolicy.MaxDepth) + "bot.py"
	return []Tree{
		{Name: "plain", Dir: mk("plain", map[string]string{"bot.py": "print('hi')\n", "lib/util.py": "X = 1\n"}, nil)},
		{Name: "symlink", Dir: mk("symlink", bot, func(dir string) error {
			return os.Symlink("/etc/passwd", filepath.Join(dir, "secret.py"))
		}), Want: filepolicy.ErrNotPlain, Path: "secret.py"},
		{Name: "fifo", Dir: mk("fifo", bot, func(dir string) error {
			return syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644)
		}), Want: filepolicy.ErrNotPlain, Path: "pipe"},
		{Name: "too many files", Dir: mk("many", many, nil), Want: filepolicy.ErrTooBig, Path: fmt.Sprintf("f%03d.py", Entries)},
		{Name: "folders count", Dir: mk("nested", nested, nil), Want: filepolicy.ErrTooBig},
		{Name: "too many bytes", Dir: mk("bytes", map[string]string{"bot.py": "x", "data.bin": strings.Repeat("x", Bytes+1)}, nil),
			Want: filepolicy.ErrTooBig, Path: "data.bin"},
		{Name: "deep folders", Dir: mk("deep", map[string]string{deep: "x"}, nil), Want: filepolicy.ErrTooDeep},
	}
}

// Tar archives a tree as it is on disk, links and special files included (what a hostile
// upload or object would carry).
func Tar(t testing.TB, dir string) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(p); err != nil {
				return err
			}
		}
		h, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Name = filepath.ToSlash(rel)
		if info.IsDir() {
			h.Name += "/"
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			f, err := os.Open(p)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = io.Copy(tw, f)
			return err
		}
		return nil
	})
	if err == nil {
		err = tw.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
