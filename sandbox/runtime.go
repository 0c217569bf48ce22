package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Runtime is an interpreter and the host paths it needs to run inside a sandbox.
type Runtime struct {
	// Exe is the interpreter to start: a venv's own python (so the venv is used as a venv),
	// or the real binary behind a pyenv shim.
	Exe string
	// ReadOnly are its prefix and base prefix, standard library and every sys.path directory
	// (site-packages, an editable SDK's source), and the binary Exe links to.
	ReadOnly []string
}

var (
	pyMu    sync.Mutex
	pyCache = map[string]*Runtime{}
	pyName  = regexp.MustCompile(`^python[0-9.]*$`)
)

// pyProbe prints where the interpreter lives, after importing the modules named in argv.
const pyProbe = `import sys, json, importlib
for m in sys.argv[1:]: importlib.import_module(m)
print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, sys.path]))`

// PythonRuntime asks a Python interpreter (a venv's python, or a pyenv shim) where it lives, so
// a sandbox can show it exactly that, and checks that it can import the required modules. The
// question runs once per interpreter, in its own sandbox, in isolated mode (-I: no PYTHONPATH,
// no user site, no current directory on the path) from an empty directory: nothing of any
// submission is on its path or in its view. Results are cached.
func PythonRuntime(python string, require ...string) (*Runtime, error) {
	key := python + "\x00" + strings.Join(require, ",")
	pyMu.Lock()
	defer pyMu.Unlock()
	if rt, ok := pyCache[key]; ok {
		return rt, nil
	}
	exe, err := exec.LookPath(python)
	if err != nil {
		return nil, fmt.Errorf("no Python interpreter %q: %w", python, err)
	}
	if exe, err = filepath.Abs(exe); err != nil {
		return nil, err
	}
	out, err := probePython(exe, require)
	if err != nil {
		return nil, err
	}
	var res []any
	if err := json.Unmarshal(out, &res); err != nil || len(res) != 6 {
		return nil, fmt.Errorf("ask %s where it lives: unexpected answer %q", python, out)
	}
	self, _ := res[0].(string)
	if self == "" || !filepath.IsAbs(self) {
		return nil, fmt.Errorf("%s does not know its own executable", python)
	}
	// sys.executable is the venv's own python in a venv (start that one, or the venv is
	// ignored) and the real binary behind a pyenv shim.
	rt := &Runtime{Exe: self}
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) || p == "/" {
			return
		}
		if _, err := os.Stat(p); err == nil {
			rt.ReadOnly = append(rt.ReadOnly, p)
		}
	}
	add(self)
	if real, err := filepath.EvalSymlinks(self); err == nil {
		add(real)
	}
	for _, v := range res[1:5] {
		s, _ := v.(string)
		add(s)
	}
	if paths, ok := res[5].([]any); ok {
		for _, v := range paths {
			s, _ := v.(string)
			add(s)
		}
	}
	pyCache[key] = rt
	return rt, nil
}

// probePython runs pyProbe in a sandbox that shows the system and the installation the
// interpreter belongs to (the directory above its bin/: a venv, a pyenv root with its shims and
// versions, /usr), for the path given and the binary it links to, and nothing else.
func probePython(exe string, require []string) ([]byte, error) {
	view := []string{"/usr", "/bin", "/sbin", "/lib", "/lib64", "/opt"}
	view = append(view, filepath.Dir(filepath.Dir(exe)))
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		view = append(view, filepath.Dir(filepath.Dir(real)))
	}
	work, err := os.MkdirTemp("", "arena-python-probe-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	// pyenv's shim finds its versions through HOME or PYENV_ROOT.
	env := Env([]string{"HOME", "PYENV_ROOT", "PYENV_VERSION"}, "PATH=/usr/local/bin:/usr/bin:/bin")
	spec := Spec{
		Name: "python probe " + exe, Path: exe, Args: append([]string{exe, "-I", "-c", pyProbe}, require...),
		Env: env, Dir: work, WorkDir: work, ReadOnly: view, noRuntime: true,
		Limits: Limits{MemoryBytes: 512 << 20, WallTime: 30 * time.Second, OutputBytes: 1 << 20, CPUSeconds: 30},
	}
	p, err := Start(spec)
	if err != nil {
		return nil, fmt.Errorf("ask %s where it lives: %w", exe, err)
	}
	var out, errb bytes.Buffer
	done := make(chan struct{})
	go func() { _, _ = io.Copy(&errb, io.LimitReader(p.Stderr(), 64<<10)); close(done) }()
	_, _ = io.Copy(&out, io.LimitReader(p.Stdout(), 1<<20))
	<-done
	if err := p.Wait(); err != nil {
		tail := strings.TrimSpace(errb.String())
		if i := strings.LastIndex(tail, "\n"); len(tail) > 2000 && i >= 0 {
			tail = tail[len(tail)-2000:]
		}
		return nil, fmt.Errorf("ask %s where it lives (isolated mode, in a sandbox): %v: %s", exe, err, tail)
	}
	return bytes.TrimSpace(out.Bytes()), nil
}

// pythonFor returns the Python runtime when spec.Path is a Python interpreter or a pyenv shim,
// nil otherwise.
func pythonFor(spec Spec) (*Runtime, error) {
	if spec.noRuntime || !pyName.MatchString(filepath.Base(spec.Path)) {
		return nil, nil
	}
	return PythonRuntime(spec.Path)
}

// GoRuntime returns what a Go bot binary needs: the binary itself (system libraries are
// always visible).
func GoRuntime(binary string) *Runtime { return &Runtime{Exe: binary, ReadOnly: []string{binary}} }

// procCPU reads a process's CPU time, its reaped children's included, from /proc.
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return 0
	}
	var ticks int64
	for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
		n, _ := strconv.ParseInt(f[k], 10, 64)
		ticks += n
	}
	const clkTck = 100 // USER_HZ on every Linux the arena runs on
	return time.Duration(ticks) * time.Second / clkTck
}
