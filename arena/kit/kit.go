package kit

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
	"sync"
	"syscall"

	"github.com/botarena/arena"
	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/sandbox"
)

// The kits by name.
const (
	Go         = "go"
	Python     = "python"
	JavaScript = "javascript"
	Rust       = "rust"
	Java       = "java"
	Cpp        = "cpp"
	TypeScript = "typescript"
)

// Folder is the files store's folder of unpacked kits and executables.
const Folder = "kit"

// Kit is one of the binary's kits: its files (relative to its root) and their hash.
type Kit struct {
	Name  string
	Files []string
	// Hash names the kit's content: every file's name and bytes, in order.
	Hash string
	fsys fs.FS
}

// ErrUnknown is an unknown kit name.
var ErrUnknown = errors.New("no such kit")

var (
	loadOnce sync.Once
	kits     map[string]Kit
	loadErr  error
)

// Names lists the kits the binary carries, sorted.
func Names() []string {
	var out []string
	for n := range arena.KitRoots {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Get returns the named kit.
func Get(name string) (Kit, error) {
	loadOnce.Do(func() { kits, loadErr = load() })
	if loadErr != nil {
		return Kit{}, loadErr
	}
	k, ok := kits[name]
	if !ok {
		return Kit{}, fmt.Errorf("%w %q: the arena carries %s", ErrUnknown, name, strings.Join(Names(), ", "))
	}
	return k, nil
}

// keep says which embedded files a kit holds: a Go kit leaves out the tests and bots/house,
// which the embedding's patterns cannot. bots/house plays the house bots inside the host and
// reads the game registry, so it imports the arena's engines, which the kit does not carry;
// a bot builds against the house bots themselves (bots/<game>).
func keep(name, rel string) bool {
	return name != Go || !(strings.HasSuffix(rel, "_test.go") || strings.HasPrefix(rel, "bots/house/"))
}

func load() (map[string]Kit, error) {
	out := map[string]Kit{}
	for name, r := range arena.KitRoots {
		sub, err := fs.Sub(r.FS, r.Root)
		if err != nil {
			return nil, err
		}
		k := Kit{Name: name, fsys: sub}
		h := sha256.New()
		err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !keep(name, p) {
				return err
			}
			b, err := fs.ReadFile(sub, p)
			if err != nil {
				return err
			}
			k.Files = append(k.Files, p)
			fmt.Fprintf(h, "%q %d\n", p, len(b))
			h.Write(b)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("kit %s: %w", name, err)
		}
		k.Hash = hex.EncodeToString(h.Sum(nil))
		out[name] = k
	}
	return out, nil
}

// Short is the hash's prefix that names the kit's folder.
func (k Kit) Short() string { return k.Hash[:24] }

// WriteTo writes the kit's files into dir (made if missing), writable: a copy to build from
// (pip builds in the source folder).
func (k Kit) WriteTo(dir string) error {
	for _, f := range k.Files {
		b, err := fs.ReadFile(k.fsys, f)
		if err != nil {
			return err
		}
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

var (
	unpackMu sync.Mutex
	unpacked = map[string]string{}
)

// Unpack puts the kit into the files store once, read-only, and returns its folder:
// <files store>/kit/<name>-<hash>.
func (k Kit) Unpack() (string, error) {
	unpackMu.Lock()
	defer unpackMu.Unlock()
	if d, ok := unpacked[k.Name]; ok {
		return d, nil
	}
	store, err := sandbox.FilesDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(store, Folder, k.Name+"-"+k.Short())
	if err := once(dir, k.WriteTo); err != nil {
		return "", fmt.Errorf("unpack the arena's %s kit into %s: %w", k.Name, dir, err)
	}
	unpacked[k.Name] = dir
	return dir, nil
}

// Dir unpacks the named kit and returns its folder.
func Dir(name string) (string, Kit, error) {
	k, err := Get(name)
	if err != nil {
		return "", k, err
	}
	d, err := k.Unpack()
	return d, k, err
}

// once makes dir with fill, at most once across processes: under a file lock, into a
// temporary folder renamed into place when complete and made read-only (files 0444, or 0555
// when fill made them executable; folders 0555), so a reader never sees half of it.
func once(dir string, fill func(tmp string) error) error {
	if err := lease(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	lf, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	tmp := dir + ".tmp"
	_ = removeAll(tmp)
	if err := os.Mkdir(tmp, 0o755); err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		_ = removeAll(tmp)
		return err
	}
	if err := readOnly(tmp); err != nil {
		_ = removeAll(tmp)
		return err
	}
	return os.Rename(tmp, dir)
}

// lease keeps dir, an entry of the files store, from the store's collector for the rest of
// this process's life: every later sandbox of this process may mount it.
func lease(dir string) error {
	fs, err := filestore.Open(filepath.Dir(filepath.Dir(dir)))
	if err != nil {
		return err
	}
	_, err = fs.Use(filestore.Entry(Folder, filepath.Base(dir)))
	return err
}

// readOnly takes write permission from everything below root (folders last, so the walk can
// still list them).
func readOnly(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		mode := os.FileMode(0o444)
		if info.Mode()&0o111 != 0 {
			mode = 0o555
		}
		return os.Chmod(p, mode)
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := os.Chmod(dirs[i], 0o555); err != nil {
			return err
		}
	}
	return nil
}

// removeAll removes a tree that readOnly may have locked (an owner who is not root needs the
// write bit on a folder to empty it).
func removeAll(root string) error {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(root)
}

// copyFile copies src into dst with mode.
func copyFile(src io.Reader, dst string, mode os.FileMode) error {
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, src); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
