package queue

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/submission"
)

// ErrBadFiles means a bot's files from the object store were refused (a path that leaves
// the folder, a link or special file, more than the limits): nothing of them was kept.
var ErrBadFiles = errors.New("bot files refused")

// PutFiles stores the folder dir (a snapshot) under hash, unless it is there already.
func (q *Queue) PutFiles(ctx context.Context, hash, dir string) error {
	if _, err := q.files.GetInfo(ctx, hash); err == nil {
		return nil
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(Pack(pw, dir)) }()
	_, err := q.files.Put(ctx, jetstream.ObjectMeta{Name: hash}, pr)
	pr.Close()
	if err != nil {
		return fmt.Errorf("storing the files of %.12s in NATS: %w", hash, err)
	}
	return nil
}

// GetFiles unpacks the files stored under hash into dst (created; must not exist). The
// object store checks its own digest; the caller checks the content hash by taking the
// snapshot again.
func (q *Queue) GetFiles(ctx context.Context, hash, dst string) error {
	lim := submission.DefaultLimits
	// The object's size is known before a byte of it is read: an archive larger than the
	// files it may hold (with a tar's headers and padding) is refused unread.
	most := maxArchive(lim)
	if info, err := q.files.GetInfo(ctx, hash); err == nil && info.Size > uint64(most) {
		return fmt.Errorf("%w: the archive of %.12s is %d MiB, more than %d files of %d MiB can take", ErrBadFiles, hash, info.Size>>20, lim.Files, lim.Bytes>>20)
	}
	obj, err := q.files.Get(ctx, hash)
	if err != nil {
		return fmt.Errorf("bot files %.12s from NATS: %w", hash, err)
	}
	defer obj.Close()
	return Unpack(io.LimitReader(obj, most), dst, lim)
}

// maxArchive is the largest tar Pack writes for files within lim: each entry's header and
// padding (two blocks at most), a folder entry for each, the end marker.
func maxArchive(lim submission.Limits) int64 {
	return lim.Bytes + int64(lim.Files)*2*3*512 + 64<<10
}

// maxDepth bounds how deeply an archive's paths nest (the files policy's bound).
const maxDepth = filepolicy.MaxDepth

// Pack writes dir's regular files and folders as a tar (names relative to dir, modes 0644
// or 0755, nothing else), judged by the files policy with no bounds: a snapshot was bounded
// when it was taken, and anything but a file or a folder is refused, never skipped.
func Pack(w io.Writer, dir string) error {
	tw := tar.NewWriter(w)
	err := filepolicy.Policy{}.Tally().Walk(dir, nil, func(e filepolicy.Entry) error {
		if e.Info.IsDir() {
			return tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: e.Rel + "/", Mode: 0o755})
		}
		mode := int64(0o644)
		if e.Exec() {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeReg, Name: e.Rel, Mode: mode, Size: e.Info.Size()}); err != nil {
			return err
		}
		f, err := os.Open(e.Path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.CopyN(tw, f, e.Info.Size())
		return err
	})
	if err != nil {
		return err
	}
	return tw.Close()
}

// Unpack reads a tar written by Pack into dst, refusing anything Pack does not write: an
// absolute path or one with "..", and whatever the files policy refuses within lim (a link,
// a device, more files and folders or bytes than lim, paths deeper than maxDepth): all
// checked before anything is written for the entry. On any error dst is removed.
func Unpack(r io.Reader, dst string, lim submission.Limits) (err error) {
	if err := os.Mkdir(dst, 0o755); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(dst)
		}
	}()
	tr := tar.NewReader(r)
	t := lim.Policy().Tally()
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%w: not a readable archive: %v", ErrBadFiles, err)
		}
		name := strings.TrimSuffix(h.Name, "/")
		clean := path.Clean(name)
		if name == "" || path.IsAbs(name) || clean != name || clean == ".." || strings.HasPrefix(clean, "../") {
			return fmt.Errorf("%w: the path %q leaves the bot's folder", ErrBadFiles, h.Name)
		}
		target := filepath.Join(dst, filepath.FromSlash(clean))
		var kind fs.FileMode
		switch h.Typeflag {
		case tar.TypeDir:
			kind = fs.ModeDir
		case tar.TypeReg:
		case tar.TypeLink:
			return fmt.Errorf("%w: %w", ErrBadFiles, filepolicy.HardLink(h.Name, h.Linkname))
		default:
			kind = h.FileInfo().Mode().Type() | fs.ModeIrregular
		}
		if err := t.Admit(clean, kind, h.Size); err != nil {
			return fmt.Errorf("%w: %w", ErrBadFiles, err)
		}
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if h.Mode&0o111 != 0 {
			mode = 0o755
		}
		// O_EXCL: a name given twice cannot overwrite, nor follow anything.
		f, err := os.OpenFile(target, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
		if err != nil {
			return fmt.Errorf("%w: %q: %v", ErrBadFiles, h.Name, err)
		}
		n, err := io.Copy(f, io.LimitReader(tr, h.Size))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil || n != h.Size {
			return fmt.Errorf("%w: %q is cut short (%d of %d bytes): %v", ErrBadFiles, h.Name, n, h.Size, err)
		}
	}
}

// DeleteFiles removes the files stored under hash (nothing when there are none): the
// coordinator's collection of versions nobody plays any more.
func (q *Queue) DeleteFiles(ctx context.Context, hash string) error {
	err := q.files.Delete(ctx, hash)
	if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return fmt.Errorf("removing the files of %.12s from NATS: %w", hash, err)
	}
	return nil
}

// HasFiles reports whether files are stored under hash.
func (q *Queue) HasFiles(ctx context.Context, hash string) bool {
	_, err := q.files.GetInfo(ctx, hash)
	return err == nil
}
