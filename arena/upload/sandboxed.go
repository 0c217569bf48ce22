package upload

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/botarena/arena/arena/filepolicy"
	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/sandbox"
)

// HelperArg is the first argument with which the arena binary (or a test binary that handles
// it in TestMain) is re-executed as the unpacker inside the sandbox; see Main.
const HelperArg = "__unpack-upload"

// Main is the unpacker process: args are the upload's file name, the file and the folder to
// fill. It returns the exit status: 0, 2 with the user's error on stderr (its first line names
// the problem and the fix), 1 for anything else.
func Main(args []string, stderr io.Writer) int {
	if len(args) != 3 {
		fmt.Fprintln(stderr, "usage: "+HelperArg+" NAME FILE DIR")
		return 1
	}
	data, err := os.ReadFile(args[1])
	if err == nil {
		err = Unpack(args[0], data, args[2], Limits{})
	}
	if err != nil {
		fmt.Fprintln(stderr, strings.ReplaceAll(err.Error(), "\n", " "))
		if errors.Is(err, ErrTooBig) || errors.Is(err, ErrBadEntry) || errors.Is(err, ErrFormat) {
			return 2
		}
		return 1
	}
	return 0
}

// Sandboxed unpacks uploads the way every submission is handled: no byte of the archive is
// parsed with the arena's rights. The upload is written as one plain file, the unpacker (the
// arena binary re-executed as HelperArg) reads it in a sandbox of its own (own uid, no
// network, bounded memory, CPU, time, output and disk) and writes into its private work dir,
// and only regular files and folders are copied out, counted again against the Limits.
type Sandboxed struct {
	Limits Limits
	// Exe is the binary to re-execute (default: this process's own executable, see exe).
	Exe string
	// Strict refuses to unpack when a sandbox layer is missing.
	Strict bool
	// View lists host paths the unpacker may also read (a script's interpreter, in tests).
	View []string
}

// unpackAt is where the unpacker's work dir appears inside its sandbox.
const unpackAt = "/run/unpack"

// Unpack fills dir (empty) from the upload named name; on an error dir is left empty.
func (s Sandboxed) Unpack(name string, data []byte, dir string) error {
	err := s.unpack(name, data, dir)
	if err != nil {
		des, _ := os.ReadDir(dir)
		for _, d := range des {
			_ = os.RemoveAll(filepath.Join(dir, d.Name()))
		}
	}
	return err
}

func (s Sandboxed) unpack(name string, data []byte, dir string) error {
	lim := s.Limits
	if lim == (Limits{}) {
		lim = DefaultLimits
	}
	if int64(len(data)) > 4*lim.Total {
		return fmt.Errorf("%w: the upload is %d MiB: leave out build output, dependencies and data", ErrTooBig, len(data)>>20)
	}
	exe, err := s.exe()
	if err != nil {
		return err
	}
	files, err := sandbox.FilesDir()
	if err != nil {
		return err
	}
	store, err := filestore.Open(files)
	if err != nil {
		return err
	}
	// A folder of this process's lease: a kill -9 leaves nothing the next start keeps.
	in, err := store.Temp("upload")
	if err != nil {
		return err
	}
	defer os.RemoveAll(in)
	if err := os.WriteFile(filepath.Join(in, "upload"), data, 0o644); err != nil {
		return err
	}
	_ = os.Chmod(in, 0o755)
	work, err := os.MkdirTemp("", "arena-unpack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	if err := os.Mkdir(filepath.Join(work, "out"), 0o777); err != nil {
		return err
	}
	spec := sandbox.Spec{
		Name: "unpack " + name, Path: exe, Args: []string{exe, HelperArg, name, "/in/upload", unpackAt + "/out"},
		Env: []string{"TMPDIR=" + unpackAt}, Dir: unpackAt, WorkDir: work, WorkAt: unpackAt,
		Mounts: []sandbox.Mount{{Host: in, At: "/in"}}, Strict: s.Strict, ReadOnly: s.View,
		Limits: sandbox.Limits{MemoryBytes: 256 << 20, Processes: 32, CPUSeconds: 30, WallTime: time.Minute,
			OutputBytes: 1 << 20, DiskBytes: lim.Total + 16<<20},
	}
	if inside := sandbox.WorkPathInside(spec); inside != unpackAt {
		// Without a mount namespace the work dir keeps its host path.
		spec.Args[4], spec.Dir, spec.Env = filepath.Join(inside, "out"), inside, []string{"TMPDIR=" + inside}
		spec.Args[3] = filepath.Join(in, "upload")
		spec.ReadOnly = append(spec.ReadOnly, in)
	}
	var copyErr error
	copied := false
	spec.Harvest = func(w string) { copied, copyErr = true, copyOut(filepath.Join(w, "out"), dir, lim) }
	p, err := sandbox.Start(spec)
	if err != nil {
		return fmt.Errorf("the unpacker could not start in its sandbox: %w", err)
	}
	var msg strings.Builder
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _, _ = io.Copy(&msg, io.LimitReader(p.Stderr(), 8<<10)) }()
	go func() { defer wg.Done(); _, _ = io.Copy(io.Discard, p.Stdout()) }()
	werr := p.Wait()
	wg.Wait()
	if werr != nil {
		r := p.Reason()
		line, _, _ := strings.Cut(strings.TrimSpace(msg.String()), "\n")
		switch r.Kind {
		case sandbox.KindExited:
			if r.Status == 2 {
				return userError(line)
			}
			// The unpacker met something in the archive it has no name for: the archive is
			// malformed, not too big.
			return fmt.Errorf("%w: the archive could not be unpacked (%s): make it again with zip -r or tar czf", ErrFormat,
				strings.ReplaceAll(line, spec.Args[4]+"/", ""))
		case sandbox.KindTimeLimit, sandbox.KindCPULimit, sandbox.KindMemoryLimit, sandbox.KindOutputLimit, sandbox.KindFileLimit, sandbox.KindProcessLimit:
			return fmt.Errorf("%w: unpacking stopped in its sandbox (%s): %s", ErrTooBig, r.String(), line)
		}
		return fmt.Errorf("unpacking stopped in its sandbox (%s): %s", r.String(), line)
	}
	if !copied {
		return errors.New("the unpacker's files could not be collected")
	}
	return copyErr
}

// userError turns the unpacker's message back into the error it printed.
func userError(line string) error {
	for _, e := range []error{ErrTooBig, ErrBadEntry, ErrFormat} {
		if rest, ok := strings.CutPrefix(line, e.Error()); ok {
			return fmt.Errorf("%w%s", e, rest)
		}
	}
	return fmt.Errorf("%w: %s", ErrFormat, line)
}

// copyOut copies the regular files and folders the unpacker wrote (as its own uid, in its own
// tmpfs) into dst, judged again by the files policy: anything else is refused, and files,
// folders and bytes are counted again.
func copyOut(src, dst string, lim Limits) error {
	t := lim.Policy().Tally()
	err := t.Walk(src, nil, func(e filepolicy.Entry) error {
		target := filepath.Join(dst, filepath.FromSlash(e.Rel))
		if e.Info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		return e.CopyTo(target, lim.FileBytes+1)
	})
	return refused(err)
}

var exeOnce struct {
	sync.Mutex
	paths map[string]string
}

// exe is the unpacker binary as the sandbox can see it: by default the running executable's
// copy in the files store that the stdio bridge uses too (arena/kit.Self: made once per
// content, so a binary replaced on disk changes nothing); a given Exe as it is, or, when it
// lives under the temporary folder (a sandbox replaces /tmp), a copy in the files store, made
// once per binary; such copies unused for an hour are removed.
func (s Sandboxed) exe() (string, error) {
	src := s.Exe
	if src == "" {
		dir, err := kit.Self()
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, kit.SelfName), nil
	}
	if rel, err := filepath.Rel(os.TempDir(), src); err != nil || strings.HasPrefix(rel, "..") {
		return src, nil
	}
	exeOnce.Lock()
	defer exeOnce.Unlock()
	if p, ok := exeOnce.paths[src]; ok {
		return p, nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return "", fmt.Errorf("the unpacker %s: %w", src, err)
	}
	sum := sha256.Sum256(b)
	files, err := sandbox.FilesDir()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(files, "unpacker-"+hex.EncodeToString(sum[:8]))
	dst := filepath.Join(dir, "unpack")
	if _, err := os.Stat(dst); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
		tmp := dst + ".partial"
		if err := os.WriteFile(tmp, b, 0o755); err != nil {
			return "", err
		}
		if err := os.Rename(tmp, dst); err != nil {
			return "", err
		}
	}
	now := time.Now()
	_ = os.Chtimes(dir, now, now)
	old, _ := filepath.Glob(filepath.Join(files, "unpacker-*"))
	for _, o := range old {
		if st, err := os.Stat(o); err == nil && o != dir && now.Sub(st.ModTime()) > time.Hour {
			_ = os.RemoveAll(o)
		}
	}
	if exeOnce.paths == nil {
		exeOnce.paths = map[string]string{}
	}
	exeOnce.paths[src] = dst
	return dst, nil
}
