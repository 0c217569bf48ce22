package submission

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/filestore"
)

// Limits bound what a snapshot copies.
type Limits struct {
	Files int   // files and folders, each folder counted once (arena/filepolicy)
	Bytes int64 // the files' total size
	// Keep, when set, chooses the files and folders (relative paths) a snapshot of a folder
	// takes; the arena uses it for its own source (the Go kit), never for a submission.
	Keep func(rel string, dir bool) bool
}

// DefaultLimits are generous for source code and small models, and stop a folder that is a
// whole home directory by mistake.
var DefaultLimits = Limits{Files: 10000, Bytes: 256 << 20}

// Snapshot is a private read-only copy of a submission's own files.
type Snapshot struct {
	// Hash names the content: every file's path, executable bit and bytes.
	Hash string
	// Dir is the copy on the host (under the files store); bots see it at /bot.
	Dir string
	// Files is the number of files, Bytes their total size.
	Files int
	Bytes int64
}

// Short is the hash's first 12 characters, for tables.
func (s Snapshot) Short() string { return s.Hash[:12] }

// Take copies src's files into store/snap/<hash> (kept when it exists already: snapshots are
// content-addressed), leased by this process for its life (arena/filestore), and returns it.
// What it may hold is arena/filepolicy's: regular files and folders only (a link or special
// file is refused, so the copy cannot reach outside the submission), each folder counted.
func Take(src Source, store string, lim Limits) (Snapshot, error) {
	if lim.Files <= 0 {
		lim.Files = DefaultLimits.Files
	}
	if lim.Bytes <= 0 {
		lim.Bytes = DefaultLimits.Bytes
	}
	tally := lim.Policy().Tally()
	files, err := list(src.Root, tally, lim.Keep)
	if err == nil && src.Siblings && src.Kind == Python {
		files, err = withSiblings(files, src.Root, tally)
	}
	if err != nil {
		return Snapshot{}, err
	}
	fs, err := filestore.Open(store)
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of %s: %w", src.Arg, err)
	}
	// Written under this process's lease: if it dies half way, the next start removes it.
	tmp, err := fs.Temp("snap")
	if err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of %s: %w", src.Arg, err)
	}
	defer os.RemoveAll(tmp)
	h := sha256.New()
	snap := Snapshot{Files: len(files)}
	for _, f := range files {
		sum, n, err := copyFile(f.src, filepath.Join(tmp, f.rel), f.exec, lim.Bytes-snap.Bytes)
		if err != nil {
			return Snapshot{}, fmt.Errorf("snapshot of %s: %w", src.Arg, err)
		}
		snap.Bytes += n
		fmt.Fprintf(h, "%q %t %d %x\n", f.rel, f.exec, n, sum)
	}
	snap.Hash = hex.EncodeToString(h.Sum(nil))
	// Leased before it is put in place: no collector removes it while this process lives.
	entry := filestore.Entry("snap", snap.Hash)
	if _, err := fs.Use(entry); err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of %s: %w", src.Arg, err)
	}
	snap.Dir = fs.Path(entry)
	if err := fs.Put(tmp, entry); err != nil {
		return Snapshot{}, fmt.Errorf("snapshot of %s: %w", src.Arg, err)
	}
	return snap, nil
}

// withSiblings adds the Python modules beside a single .py file (local authoring), judged
// with the file itself by one tally.
func withSiblings(files []file, root string, t *filepolicy.Tally) ([]file, error) {
	ents, err := os.ReadDir(filepath.Dir(root))
	if err != nil {
		return nil, err
	}
	for _, e := range ents {
		p := filepath.Join(filepath.Dir(root), e.Name())
		if p == root || !strings.HasSuffix(e.Name(), ".py") || strings.HasPrefix(e.Name(), ".") || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			return nil, err
		}
		if err := t.Admit(e.Name(), info.Mode(), info.Size()); err != nil {
			return nil, fmt.Errorf("%w: %s and the Python modules beside it: %w; put the bot's own files in a folder and give the folder", ErrTooBig, root, err)
		}
		files = append(files, file{src: p, rel: e.Name()})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files, nil
}

type file struct {
	src, rel string
	exec     bool
}

// Policy is what a snapshot within these limits may hold (arena/filepolicy): folders count
// against Files as files do.
func (l Limits) Policy() filepolicy.Policy {
	return filepolicy.Policy{Entries: l.Files, Bytes: l.Bytes}
}

// list walks root (a file or a folder) in a stable order, judged by the files policy.
func list(root string, t *filepolicy.Tally, keep func(rel string, dir bool) bool) ([]file, error) {
	st, err := os.Lstat(root)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrMissing, root, err)
	}
	if st.Mode().IsRegular() {
		if err := t.Admit(filepath.Base(root), st.Mode(), st.Size()); err != nil {
			return nil, refused(root, err)
		}
		return []file{{src: root, rel: filepath.Base(root), exec: st.Mode()&0o111 != 0}}, nil
	}
	var out []file
	skip := func(rel string, d fs.DirEntry) bool {
		name := d.Name()
		// Hidden files and Python's caches are not the bot's: left out, never judged.
		return strings.HasPrefix(name, ".") || name == "__pycache__" || (keep != nil && !keep(filepath.FromSlash(rel), d.IsDir()))
	}
	err = t.Walk(root, skip, func(e filepolicy.Entry) error {
		if !e.Info.IsDir() {
			out = append(out, file{src: e.Path, rel: filepath.FromSlash(e.Rel), exec: e.Exec()})
		}
		return nil
	})
	if err != nil {
		return nil, refused(root, err)
	}
	return out, nil
}

// refused says a policy's verdict on root in the snapshot's own errors.
func refused(root string, err error) error {
	switch {
	case errors.Is(err, filepolicy.ErrNotPlain):
		return fmt.Errorf("%w: %w", ErrLink, err)
	case errors.Is(err, filepolicy.ErrTooBig), errors.Is(err, filepolicy.ErrTooDeep):
		return fmt.Errorf("%w: %s: %w", ErrTooBig, root, err)
	}
	return err
}

// copyFile copies at most room bytes (a file growing while it is copied cannot break the
// limit) and returns the content's hash and size.
func copyFile(src, dst string, exec bool, room int64) ([]byte, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return nil, 0, err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return nil, 0, err
	}
	mode := os.FileMode(0o644)
	if exec {
		mode = 0o755
	}
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return nil, 0, err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, h), io.LimitReader(in, room+1))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, 0, err
	}
	if n > room {
		return nil, 0, fmt.Errorf("%w: %s grew past the size limit while it was copied", ErrTooBig, src)
	}
	return h.Sum(nil), n, nil
}
