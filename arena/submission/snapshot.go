package submission

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/botarena/arena/arena/filestore"
)

// Limits bound what a snapshot copies.
type Limits struct {
	Files int   // number of files
	Bytes int64 // their total size
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
// content-addressed), leased by this process for its life (arena/filestore), and returns it. It copies regular files only and refuses symlinks and
// special files, so the copy cannot reach outside the submission.
func Take(src Source, store string, lim Limits) (Snapshot, error) {
	if lim.Files <= 0 {
		lim.Files = DefaultLimits.Files
	}
	if lim.Bytes <= 0 {
		lim.Bytes = DefaultLimits.Bytes
	}
	files, err := list(src.Root, lim)
	if err == nil && src.Siblings && src.Kind == Python {
		files, err = withSiblings(files, src.Root, lim)
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

// withSiblings adds the Python modules beside a single .py file (local authoring).
func withSiblings(files []file, root string, lim Limits) ([]file, error) {
	ents, err := os.ReadDir(filepath.Dir(root))
	if err != nil {
		return nil, err
	}
	var total int64
	for _, f := range files {
		if st, err := os.Stat(f.src); err == nil {
			total += st.Size()
		}
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
		total += info.Size()
		if len(files) >= lim.Files || total > lim.Bytes {
			return nil, fmt.Errorf("%w: %s and the Python modules beside it hold more than %d files or %d MiB; put the bot's own files in a folder and give the folder", ErrTooBig, root, lim.Files, lim.Bytes>>20)
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

// list walks root (a file or a folder) in a stable order, within the limits.
func list(root string, lim Limits) ([]file, error) {
	st, err := os.Lstat(root)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrMissing, root, err)
	}
	if st.Mode().IsRegular() {
		return []file{{src: root, rel: filepath.Base(root), exec: st.Mode()&0o111 != 0}}, nil
	}
	var out []file
	var total int64
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		name := d.Name()
		if strings.HasPrefix(name, ".") || name == "__pycache__" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if lim.Keep != nil && !lim.Keep(rel, d.IsDir()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return nil
		case info.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("%w: %s is a symbolic link; a submission holds plain files only (copy the file in instead)", ErrLink, p)
		case !info.Mode().IsRegular():
			return fmt.Errorf("%w: %s is not a regular file (%s); a submission holds plain files only", ErrLink, p, info.Mode().Type())
		}
		total += info.Size()
		if len(out) >= lim.Files || total > lim.Bytes {
			return fmt.Errorf("%w: %s holds more than %d files or %d MiB; submit only the bot's own files", ErrTooBig, root, lim.Files, lim.Bytes>>20)
		}
		out = append(out, file{src: p, rel: rel, exec: info.Mode()&0o111 != 0})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out, nil
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
