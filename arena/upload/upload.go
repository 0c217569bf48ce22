package upload

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/botarena/arena/arena/filepolicy"
)

// Errors, each wrapped with what was wrong and the fix.
var (
	ErrTooBig   = errors.New("upload too big")
	ErrBadEntry = errors.New("upload holds an entry a submission may not")
	ErrFormat   = errors.New("unknown kind of upload")
)

// Limits bound an unpacked upload.
type Limits struct {
	Files     int   // entries, folders included
	FileBytes int64 // one file, unpacked
	Total     int64 // every file, unpacked
}

// Policy is what an upload within these limits may hold (arena/filepolicy).
func (l Limits) Policy() filepolicy.Policy {
	return filepolicy.Policy{Entries: l.Files, FileBytes: l.FileBytes, Bytes: l.Total}
}

// refused says the files policy's verdict in the upload's own errors.
func refused(err error) error {
	switch {
	case errors.Is(err, filepolicy.ErrNotPlain):
		return fmt.Errorf("%w: %w", ErrBadEntry, err)
	case errors.Is(err, filepolicy.ErrTooBig), errors.Is(err, filepolicy.ErrTooDeep):
		return fmt.Errorf("%w: %w", ErrTooBig, err)
	}
	return err
}

// DefaultLimits fit a bot's source with its data files.
var DefaultLimits = Limits{Files: 1000, FileBytes: 8 << 20, Total: 32 << 20}

// Unpack writes the upload named name (its file name says what it is: .zip, .tar, .tar.gz or
// .tgz, else one source file) into dir, which must be empty. A single top folder in an
// archive is dropped, so mybot/bot.py lands as bot.py. A lone .py file becomes bot.py and a lone
// .go file main.go, the names a folder of that language is known by.
func Unpack(name string, data []byte, dir string, lim Limits) error {
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	w := &writer{dir: dir, lim: lim, tally: lim.Policy().Tally()}
	lower := strings.ToLower(name)
	var err error
	switch {
	case strings.HasSuffix(lower, ".zip"):
		err = w.zip(data)
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		zr, gerr := gzip.NewReader(bytes.NewReader(data))
		if gerr != nil {
			return fmt.Errorf("%w: %s is not gzip-compressed (%v): upload a .tar.gz made by tar czf", ErrFormat, name, gerr)
		}
		err = w.tar(zr)
	case strings.HasSuffix(lower, ".tar"):
		err = w.tar(bytes.NewReader(data))
	default:
		base := path.Base(strings.ReplaceAll(name, "\\", "/"))
		switch {
		case strings.HasSuffix(lower, ".py"):
			base = "bot.py"
		case strings.HasSuffix(lower, ".go"):
			base = "main.go"
		case !strings.HasSuffix(lower, ".js") && !strings.HasSuffix(lower, ".ts"):
			return fmt.Errorf("%w: %s: upload a .py, .go or .js file, or a .zip, .tar or .tar.gz of a bot folder (other languages need their folder: Cargo.toml, pom.xml, CMakeLists.txt or bot.json)", ErrFormat, name)
		}
		err = w.file(base, 0o644, bytes.NewReader(data))
	}
	if err != nil {
		return err
	}
	if w.tally.Entries() == 0 {
		return fmt.Errorf("%w: %s holds no files: upload the bot's files", ErrFormat, name)
	}
	return flatten(dir)
}

type writer struct {
	dir   string
	lim   Limits
	tally *filepolicy.Tally
}

// clean checks an entry's name and returns it relative to dir.
func clean(name string) (string, error) {
	n := strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(n, "/") || (len(n) > 1 && n[1] == ':') {
		return "", fmt.Errorf("%w: %q is an absolute path: archive the folder's contents with relative names", ErrBadEntry, name)
	}
	for _, part := range strings.Split(n, "/") {
		if part == ".." {
			return "", fmt.Errorf("%w: %q climbs out of the folder (..): archive the folder's contents with relative names", ErrBadEntry, name)
		}
	}
	c := path.Clean(n)
	if c == "." || c == "" {
		return "", nil
	}
	if !fs.ValidPath(c) {
		return "", fmt.Errorf("%w: %q is not a valid file name", ErrBadEntry, name)
	}
	return c, nil
}

func (w *writer) mkdir(name string) error {
	rel, err := clean(name)
	if err != nil || rel == "" {
		return err
	}
	if err := w.tally.Admit(rel, fs.ModeDir, 0); err != nil {
		return refused(err)
	}
	return w.mkdirAll(name, filepath.Join(w.dir, filepath.FromSlash(rel)))
}

// mkdirAll makes an entry's folder; a folder where the archive put a file is the archive's
// fault, named by its entry (never by the unpacker's own path).
func (w *writer) mkdirAll(name, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%w: %s: a file and a folder of one name (or a folder through a file): archive a plain folder", ErrBadEntry, name)
	}
	return nil
}

// file writes one regular file, counting what it writes (never trusting a header's size).
func (w *writer) file(name string, mode fs.FileMode, r io.Reader) error {
	rel, err := clean(name)
	if err != nil {
		return err
	}
	if rel == "" {
		return fmt.Errorf("%w: an entry has no name", ErrBadEntry)
	}
	// Admitted with no bytes yet: its size is what the copy below reads, never a header's.
	if err := w.tally.Admit(rel, 0, 0); err != nil {
		return refused(err)
	}
	dst := filepath.Join(w.dir, filepath.FromSlash(rel))
	if err := w.mkdirAll(name, filepath.Dir(dst)); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if mode&0o111 != 0 {
		perm = 0o755
	}
	// O_EXCL: a second entry of the same name (or one through a folder made by a file) is refused.
	f, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return fmt.Errorf("%w: %s: %v (two entries of one name?)", ErrBadEntry, name, err)
	}
	defer f.Close()
	n, err := io.Copy(f, io.LimitReader(r, w.tally.Room()+1))
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrFormat, name, err)
	}
	if err := w.tally.Grew(rel, n); err != nil {
		return refused(err)
	}
	return f.Close()
}

func (w *writer) zip(data []byte) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%w: not a zip archive (%v): make it with zip -r", ErrFormat, err)
	}
	if len(zr.File) > w.lim.Files {
		return fmt.Errorf("%w: %d entries, at most %d: leave out build output and dependencies", ErrTooBig, len(zr.File), w.lim.Files)
	}
	for _, f := range zr.File {
		m := f.Mode()
		switch {
		case m.IsDir():
			if err := w.mkdir(f.Name); err != nil {
				return err
			}
		case m.IsRegular():
			rc, err := f.Open()
			if err != nil {
				return fmt.Errorf("%w: %s: %v", ErrFormat, f.Name, err)
			}
			err = w.file(f.Name, m, rc)
			rc.Close()
			if err != nil {
				return err
			}
		default:
			return refused(filepolicy.Kind(f.Name, m))
		}
	}
	return nil
}

func (w *writer) tar(r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: not a tar archive (%v): make it with tar cf or tar czf", ErrFormat, err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = w.mkdir(h.Name)
		case tar.TypeReg:
			err = w.file(h.Name, h.FileInfo().Mode(), tr)
		case tar.TypeXGlobalHeader:
			continue
		case tar.TypeLink:
			err = refused(filepolicy.HardLink(h.Name, h.Linkname))
		default:
			err = refused(filepolicy.Kind(h.Name, h.FileInfo().Mode()))
		}
		if err != nil {
			return err
		}
	}
}

// flatten moves the contents of a single top folder up into dir.
func flatten(dir string) error {
	des, err := os.ReadDir(dir)
	if err != nil || len(des) != 1 || !des[0].IsDir() {
		return err
	}
	top := filepath.Join(dir, des[0].Name())
	tmp := dir + ".top"
	if err := os.Rename(top, tmp); err != nil {
		return err
	}
	inner, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, de := range inner {
		if err := os.Rename(filepath.Join(tmp, de.Name()), filepath.Join(dir, de.Name())); err != nil {
			return err
		}
	}
	return os.Remove(tmp)
}
