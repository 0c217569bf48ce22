package kit

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/botarena/arena/sandbox"
)

// SelfName is the executable's name inside its folder (see Self).
const SelfName = "arena"

var (
	selfOnce sync.Once
	selfDir  string
	selfErr  error
)

// Self copies the running executable into the files store once per content
// (kit/arena-<hash>/arena, 0555) and returns that folder: what a sandbox shows when it
// re-executes the arena (the stdio bridge). The copy is taken from /proc/self/exe, the file
// this process runs even when the installed binary has since been replaced, so replacing the
// arena mid-tournament changes nothing for the running one; and it lives in the store, which
// every sandbox can be shown (a test binary's own folder is under the temporary folder, which a
// sandbox replaces).
func Self() (string, error) {
	selfOnce.Do(func() { selfDir, selfErr = self() })
	return selfDir, selfErr
}

func self() (string, error) {
	exe := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", err
		}
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("read the arena's own executable: %w", err)
	}
	defer f.Close()
	sum, err := identity(f)
	if err != nil {
		return "", fmt.Errorf("read the arena's own executable: %w", err)
	}
	store, err := sandbox.FilesDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(store, Folder, "arena-"+sum[:24])
	err = once(dir, func(tmp string) error {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		return copyFile(f, filepath.Join(tmp, SelfName), 0o755)
	})
	if err != nil {
		return "", fmt.Errorf("copy the arena's own executable into %s: %w", dir, err)
	}
	return dir, nil
}

// identity names the executable's content: the Go build ID the linker wrote into it (its last
// part is the hash of the binary's content), with the file's size; reading a note costs
// nothing, where hashing 50 MB costs a quarter of a second at every start. A binary without a
// build ID (linked with -buildid=) is hashed whole.
func identity(f *os.File) (string, error) {
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if id := goBuildID(f); id != "" {
		fmt.Fprintf(h, "go build id %q, %d bytes", id, st.Size())
	} else {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return "", err
		}
		if _, err := io.Copy(h, f); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// goBuildID reads the Go build ID from an ELF executable's .note.go.buildid section (empty
// when there is none).
func goBuildID(f *os.File) string {
	ef, err := elf.NewFile(f)
	if err != nil {
		return ""
	}
	sec := ef.Section(".note.go.buildid")
	if sec == nil {
		return ""
	}
	b, err := sec.Data()
	// The note: name size, descriptor size, type (4 bytes each), "Go\x00\x00", the ID.
	if err != nil || len(b) < 16 || string(b[12:16]) != "Go\x00\x00" {
		return ""
	}
	n := int(ef.ByteOrder.Uint32(b[4:8]))
	if 16+n > len(b) {
		return ""
	}
	return string(b[16 : 16+n])
}
