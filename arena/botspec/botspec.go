package botspec

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/botarena/arena/arena/host"
)

// Errors, each wrapped with the path and the fix.
var (
	ErrMissing       = errors.New("no such bot file")
	ErrNotExecutable = errors.New("bot file is not executable")
	ErrUnknownKind   = errors.New("unknown kind of bot")
	ErrBuild         = errors.New("cannot build Go bot")
	ErrNoPython      = errors.New("no Python interpreter")
)

// Kind of bot.
type Kind string

// Kinds of bot.
const (
	Python Kind = "python"
	GoPkg  Kind = "go"
	Exec   Kind = "exec"
)

// Spec is a resolved bot.
type Spec struct {
	Arg  string // what the user typed
	Kind Kind
	Path string // absolute path of the file or directory
	// Class is the ClassName of a "file.py:ClassName" spec.
	Class string
}

// Parse classifies arg without building anything.
func Parse(arg string) (Spec, error) {
	path, class := arg, ""
	if i := strings.LastIndex(arg, ".py:"); i >= 0 {
		path, class = arg[:i+3], arg[i+4:]
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return Spec{}, fmt.Errorf("%w %q: %v", ErrMissing, arg, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return Spec{}, fmt.Errorf("%w %q: check the path (a bot is a .py file, a Go package directory, or an executable)", ErrMissing, path)
	}
	s := Spec{Arg: arg, Path: abs, Class: class}
	switch {
	case st.IsDir():
		goFiles, _ := filepath.Glob(filepath.Join(abs, "*.go"))
		if len(goFiles) == 0 {
			return Spec{}, fmt.Errorf("%w %q: a directory must be a Go package with a main function (no .go files found there)", ErrUnknownKind, path)
		}
		if !isMainPackage(goFiles) {
			return Spec{}, fmt.Errorf("%w %q: the Go package there is not package main; give the directory of the bot's command (for example bots/dynamite/cmd/paper)", ErrUnknownKind, path)
		}
		s.Kind = GoPkg
	case strings.HasSuffix(abs, ".py"):
		s.Kind = Python
	case st.Mode()&0o111 != 0:
		s.Kind = Exec
	case strings.HasSuffix(abs, ".go"):
		return Spec{}, fmt.Errorf("%w %q: give the Go package directory (%s), not one .go file", ErrUnknownKind, path, filepath.Dir(path))
	default:
		return Spec{}, fmt.Errorf("%w %q: not a .py file, not a Go package directory, and not executable (chmod +x %s if it is a program)", ErrNotExecutable, path, path)
	}
	return s, nil
}

// Resolver builds Go bots once per binary cache and finds the Python interpreter.
type Resolver struct {
	// CacheDir holds built Go bots; default <user cache>/arena/bots.
	CacheDir string
	// Python is the interpreter with arena_sdk installed; default $ARENA_PYTHON or python3.
	Python string

	mu     sync.Mutex
	builds map[string]*build

	pyOnce  sync.Once
	pyPaths []string
	pyExe   string
	pyErr   error
}

type build struct {
	once sync.Once
	bin  string
	err  error
}

// Command resolves arg to a launch command, building a Go package if needed.
func (r *Resolver) Command(arg string) (host.Command, error) {
	s, err := Parse(arg)
	if err != nil {
		return host.Command{}, err
	}
	return r.CommandFor(s)
}

// CommandFor resolves a parsed spec.
func (r *Resolver) CommandFor(s Spec) (host.Command, error) {
	switch s.Kind {
	case Python:
		py, err := r.python()
		if err != nil {
			return host.Command{}, err
		}
		target := s.Path
		if s.Class != "" {
			target += ":" + s.Class
		}
		ro, err := r.pythonRuntime(py)
		if err != nil {
			return host.Command{}, err
		}
		// The real interpreter, not a shim script (pyenv): faster to start, and a single file
		// for the sandbox to expose.
		py = r.pyExe
		return host.Command{Name: s.Arg, Path: py, Args: []string{"-m", "arena_sdk", target}, Dir: filepath.Dir(s.Path),
			ReadOnly: append([]string{filepath.Dir(s.Path)}, ro...)}, nil
	case GoPkg:
		bin, err := r.buildGo(s.Path)
		if err != nil {
			return host.Command{}, fmt.Errorf("%w %q: %v", ErrBuild, s.Arg, err)
		}
		return host.Command{Name: s.Arg, Path: bin, Dir: s.Path, ReadOnly: []string{bin}}, nil
	default:
		return host.Command{Name: s.Arg, Path: s.Path, Dir: filepath.Dir(s.Path), ReadOnly: []string{s.Path}}, nil
	}
}

func (r *Resolver) python() (string, error) {
	py := r.Python
	if py == "" {
		py = os.Getenv("ARENA_PYTHON")
	}
	if py == "" {
		py = "python3"
	}
	p, err := exec.LookPath(py)
	if err != nil {
		return "", fmt.Errorf("%w %q found for Python bots: install Python 3 and the SDK (pip install ./sdk/python), or set ARENA_PYTHON", ErrNoPython, py)
	}
	return p, nil
}

func (r *Resolver) cacheDir() (string, error) {
	if r.CacheDir != "" {
		return r.CacheDir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "arena", "bots"), nil
}

// buildGo compiles a Go package directory once; "go build" itself skips unchanged work.
func (r *Resolver) buildGo(dir string) (string, error) {
	r.mu.Lock()
	if r.builds == nil {
		r.builds = map[string]*build{}
	}
	b := r.builds[dir]
	if b == nil {
		b = &build{}
		r.builds[dir] = b
	}
	r.mu.Unlock()
	b.once.Do(func() {
		cache, err := r.cacheDir()
		if err != nil {
			b.err = err
			return
		}
		if err := os.MkdirAll(cache, 0o755); err != nil {
			b.err = err
			return
		}
		sum := sha256.Sum256([]byte(dir))
		bin := filepath.Join(cache, filepath.Base(dir)+"-"+hex.EncodeToString(sum[:6]))
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.err = fmt.Errorf("go build failed in %s: %v\n%s", dir, err, strings.TrimSpace(string(out)))
			return
		}
		b.bin = bin
	})
	return b.bin, b.err
}

// pythonRuntime lists what a Python bot must be able to read (interpreter prefix, standard
// library, site-packages with the SDK) and checks that the SDK is installed, once.
func (r *Resolver) pythonRuntime(py string) ([]string, error) {
	r.pyOnce.Do(func() {
		const probe = "import sys, os, arena_sdk\n" +
			"print(os.path.realpath(sys.executable))\n" +
			"for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, *sys.path}:\n" +
			"    if p and os.path.isdir(p): print(os.path.realpath(p))\n"
		out, err := exec.Command(py, "-c", probe).CombinedOutput()
		if err != nil {
			r.pyErr = fmt.Errorf("%w with the arena SDK: %s cannot import arena_sdk (%v); install it with: %s -m pip install ./sdk/python\n%s",
				ErrNoPython, py, err, py, strings.TrimSpace(string(out)))
			return
		}
		seen := map[string]bool{}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		r.pyExe, lines = lines[0], lines[1:]
		for _, l := range lines {
			if l != "" && !seen[l] {
				seen[l] = true
				r.pyPaths = append(r.pyPaths, l)
			}
		}
	})
	return r.pyPaths, r.pyErr
}

// isMainPackage reports whether the non-test files among files declare package main.
func isMainPackage(files []string) bool {
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.PackageClauseOnly)
		if err == nil && af.Name.Name == "main" {
			return true
		}
	}
	return false
}
