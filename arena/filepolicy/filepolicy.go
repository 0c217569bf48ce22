package filepolicy

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// Errors, each wrapped with the path and the fix.
var (
	// ErrNotPlain is an entry that is neither a regular file nor a folder.
	ErrNotPlain = errors.New("not a regular file or folder")
	// ErrTooBig is more entries or bytes than the policy allows.
	ErrTooBig = errors.New("over the bounds")
	// ErrTooDeep is a path nested deeper than MaxDepth folders.
	ErrTooDeep = errors.New("nested too deep")
)

// MaxDepth bounds how many folders deep a path nests: deeper trees are no bot's source, and
// a walk or an unpacker must not recurse without end.
const MaxDepth = 64

// Policy bounds a submission's files. A zero bound is no bound.
type Policy struct {
	// Entries bounds files and folders together (each folder once, named or implied).
	Entries int
	// FileBytes bounds one file; Bytes all of them.
	FileBytes int64
	Bytes     int64
}

// Tally judges a tree's entries one at a time, in any order, against a Policy.
type Tally struct {
	p       Policy
	entries int
	bytes   int64
	dirs    map[string]bool
}

// Tally starts judging one tree.
func (p Policy) Tally() *Tally { return &Tally{p: p, dirs: map[string]bool{}} }

// Entries is how many files and folders were admitted; Bytes their files' size.
func (t *Tally) Entries() int   { return t.entries }
func (t *Tally) Bytes() int64   { return t.bytes }
func (t *Tally) Policy() Policy { return t.p }

// Admit judges the entry at rel (a slash-separated path inside the tree) of type mode with
// size bytes (a file's; use Grew when a stream's size is known only once it is copied),
// counting it and the folders its path implies.
func (t *Tally) Admit(rel string, mode fs.FileMode, size int64) error {
	if err := Kind(rel, mode); err != nil {
		return err
	}
	if depth := strings.Count(rel, "/") + 1; depth > MaxDepth {
		return fmt.Errorf("%w: %.80s... nests more than %d folders deep: a submission's tree is shallower", ErrTooDeep, rel, MaxDepth)
	}
	dir := path.Dir(rel)
	if mode.IsDir() {
		dir = rel
	}
	for d := dir; d != "." && d != "/" && !t.dirs[d]; d = path.Dir(d) {
		t.dirs[d] = true
		if err := t.count(d); err != nil {
			return err
		}
	}
	if mode.IsDir() {
		return nil
	}
	if err := t.count(rel); err != nil {
		return err
	}
	return t.Grew(rel, size)
}

// Grew adds n bytes to the file at rel, already admitted.
func (t *Tally) Grew(rel string, n int64) error {
	if n < 0 {
		return fmt.Errorf("%w: %s has a negative size", ErrTooBig, rel)
	}
	t.bytes += n
	switch {
	case t.p.FileBytes > 0 && n > t.p.FileBytes:
		return fmt.Errorf("%w: %s is more than %s, the most one file may hold: leave it out", ErrTooBig, rel, size(t.p.FileBytes))
	case t.p.Bytes > 0 && t.bytes > t.p.Bytes:
		return fmt.Errorf("%w: the files come to more than %s in all (at %s): leave out build output, dependencies and data", ErrTooBig, size(t.p.Bytes), rel)
	}
	return nil
}

// Room is how many bytes the next file may hold, for a copy that must stop there (stopping at
// Room()+1 tells a file over its bound from one at it); math.MaxInt64-1 when unbounded.
func (t *Tally) Room() int64 {
	room := int64(math.MaxInt64 - 1)
	if t.p.FileBytes > 0 {
		room = t.p.FileBytes
	}
	if t.p.Bytes > 0 {
		room = min(room, max(t.p.Bytes-t.bytes, 0))
	}
	return room
}

func (t *Tally) count(rel string) error {
	t.entries++
	if t.p.Entries > 0 && t.entries > t.p.Entries {
		return fmt.Errorf("%w: more than %d files and folders (at %s): leave out build output, dependencies and data", ErrTooBig, t.p.Entries, rel)
	}
	return nil
}

// Kind refuses an entry that is neither a regular file nor a folder, naming what it is.
func Kind(rel string, mode fs.FileMode) error {
	if mode.IsDir() || mode.IsRegular() {
		return nil
	}
	what := "a special file"
	switch {
	case mode&fs.ModeSymlink != 0:
		what = "a symbolic link"
	case mode&fs.ModeDevice != 0:
		what = "a device"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case mode&fs.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%w: %s is %s: a submission holds regular files and folders only; put the file itself in its place", ErrNotPlain, rel, what)
}

// HardLink refuses an archive's hard link (a file system walk cannot tell one from a file).
func HardLink(rel, target string) error {
	return fmt.Errorf("%w: %s is a hard link (to %s): a submission holds regular files and folders only; archive the files themselves", ErrNotPlain, rel, target)
}

// Entry is one admitted entry of a walk.
type Entry struct {
	// Rel is its slash-separated path below the root; Path its path on the host.
	Rel, Path string
	Info      fs.FileInfo
}

// Exec reports whether a file's mode makes it executable (the one bit a submission keeps).
func (e Entry) Exec() bool { return e.Info.Mode()&0o111 != 0 }

// CopyTo copies the file to target, a new file (never one that exists, nor through a link),
// with the mode a submission keeps (0644, or 0755 when executable): at most most bytes, so a
// file that grows while it is copied cannot take more.
func (e Entry) CopyTo(target string, most int64) error {
	mode := fs.FileMode(0o644)
	if e.Exec() {
		mode = 0o755
	}
	in, err := os.Open(e.Path)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, io.LimitReader(in, most)); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// Walk judges every entry below root, never following a link, and calls visit for each in
// lexical order once the whole tree passed (so nothing is written for a tree that fails);
// skip, when set, leaves an entry out uncounted (a folder with all it holds), which is how
// a caller drops what is not the bot's (hidden files, caches).
func (t *Tally) Walk(root string, skip func(rel string, d fs.DirEntry) bool, visit func(Entry) error) error {
	var out []Entry
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if skip != nil && skip(rel, d) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		var n int64
		if info.Mode().IsRegular() {
			n = info.Size()
		}
		if err := t.Admit(rel, info.Mode(), n); err != nil {
			return err
		}
		out = append(out, Entry{Rel: rel, Path: p, Info: info})
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	for _, e := range out {
		if err := visit(e); err != nil {
			return err
		}
	}
	return nil
}

// Measure judges the tree below root with p and returns its tally: how many files and
// folders it holds and their bytes, as every bound counts them.
func Measure(root string, p Policy) (*Tally, error) {
	t := p.Tally()
	return t, t.Walk(root, nil, func(Entry) error { return nil })
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
