package botspec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/botarena/arena/arena/kit"
)

// ErrOwnPython means the arena could not make its own Python environment.
var ErrOwnPython = errors.New("cannot make the arena's Python environment")

var (
	ownMu  sync.Mutex
	ownExe string
)

// OwnPython returns the interpreter of the arena's own virtual environment, made on first need
// in the user's cache (<cache>/arena/python-<SDK hash>): `python3 -m venv`, then pip installs
// the Python SDK this binary carries (its own bytes, unpacked into a scratch folder; pip
// fetches grpcio, protobuf and cryptography from the user's package index). All on the host,
// with no submission involved; once per SDK and user, under a file lock, announced on log.
// Nothing is looked for in the working directory or a bot's folder.
func OwnPython(log io.Writer) (string, error) {
	ownMu.Lock()
	defer ownMu.Unlock()
	if ownExe != "" {
		return ownExe, nil
	}
	sdk, err := kit.Get(kit.Python)
	if err != nil {
		return "", err
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("%w: no cache folder (%v): set HOME or XDG_CACHE_HOME, or give an interpreter with the SDK (--python or ARENA_PYTHON)", ErrOwnPython, err)
	}
	dir := filepath.Join(base, "arena", "python-"+sdk.Short())
	exe := filepath.Join(dir, "bin", "python")
	ready := filepath.Join(dir, "ready")
	if ownReady(ready, exe) == nil {
		ownExe = exe
		return exe, nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	lf, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	defer lf.Close()
	if err := syscall.Flock(int(lf.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	broken := ownReady(ready, exe)
	if broken == nil {
		ownExe = exe
		return exe, nil
	}
	if !errors.Is(broken, errNotMade) {
		fmt.Fprintf(log, "arena: its Python environment in %s is broken (%v); making it again\n", dir, broken)
	}
	fmt.Fprintf(log, "arena: making its Python environment with the arena SDK in %s (once: python3 -m venv, then pip fetches the SDK's dependencies from the package index)\n", dir)
	if err := makeOwnPython(dir, sdk); err != nil {
		_ = os.RemoveAll(dir)
		return "", err
	}
	if err := os.WriteFile(ready, []byte(sdk.Hash+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	ownExe = exe
	return exe, nil
}

// errNotMade is an environment never finished (no ready marker).
var errNotMade = errors.New("not made yet")

// ownReady says why the environment at exe cannot be used: not finished, or its interpreter
// gone (a venv's python links to the interpreter it was made with, which an upgrade or an
// uninstall removes; the marker alone would keep a dead link forever). Nil when usable.
func ownReady(ready, exe string) error {
	if _, err := os.Stat(ready); err != nil {
		return errNotMade
	}
	fi, err := os.Stat(exe) // follows the venv's link to its interpreter
	if err != nil {
		if target := lastLink(exe); target != exe {
			return fmt.Errorf("its interpreter %s links to %s, which is gone", exe, target)
		}
		return fmt.Errorf("its interpreter %s is gone", exe)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("its interpreter %s is not an executable file", exe)
	}
	return nil
}

// lastLink follows the symbolic links from p (a venv's python -> python3 -> /usr/bin/python3.12)
// to the last path named: the one that is missing when the chain is broken.
func lastLink(p string) string {
	for range 16 {
		target, err := os.Readlink(p)
		if err != nil {
			return p
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = target
	}
	return p
}

func makeOwnPython(dir string, sdk kit.Kit) error {
	_ = os.RemoveAll(dir)
	py, err := exec.LookPath("python3")
	if err != nil {
		return fmt.Errorf("%w: no python3 on PATH: Python bots need Python 3.10 or newer with its venv module (apt install python3 python3-venv), or give an interpreter with the SDK (--python or ARENA_PYTHON)", ErrOwnPython)
	}
	if out, err := hostRun(os.TempDir(), py, "-m", "venv", dir); err != nil {
		return fmt.Errorf("%w: %s -m venv %s: %v\n  %s\n  install the venv module (apt install python3-venv), or give an interpreter with the SDK (--python or ARENA_PYTHON)", ErrOwnPython, py, dir, err, out)
	}
	// pip builds in the source folder: give it a writable copy of the binary's SDK.
	src, err := os.MkdirTemp("", "arena-python-sdk-")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	defer os.RemoveAll(src)
	if err := sdk.WriteTo(src); err != nil {
		return fmt.Errorf("%w: %v", ErrOwnPython, err)
	}
	if out, err := hostRun(src, filepath.Join(dir, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input", src); err != nil {
		return fmt.Errorf("%w: pip install of the arena's Python SDK: %v\n  %s\n  pip fetches grpcio, protobuf and cryptography from the package index: connect this machine to the network (or set PIP_INDEX_URL to an index it reaches), or give an interpreter with the SDK (--python or ARENA_PYTHON)", ErrOwnPython, err, out)
	}
	return nil
}

// hostRun runs a trusted command (the host's python3, the environment's pip on the binary's own
// SDK) in dir and returns the last lines of its output.
func hostRun(dir, exe string, args ...string) (string, error) {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PIP_REQUIRE_VIRTUALENV=0")
	out, err := cmd.CombinedOutput()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > 12 {
		lines = lines[len(lines)-12:]
	}
	return strings.Join(lines, "\n  "), err
}
