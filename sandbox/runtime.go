package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	// Exe is the real interpreter binary (a pyenv shim resolved).
	Exe string
	// ReadOnly are its prefix, standard library and every sys.path directory (site-packages,
	// an editable SDK's source).
	ReadOnly []string
}

var (
	pyMu    sync.Mutex
	pyCache = map[string]*Runtime{}
	pyName  = regexp.MustCompile(`^python[0-9.]*$`)
)

// PythonRuntime asks a Python interpreter (or a pyenv shim) where it lives, so a sandbox can
// show it exactly that: its real executable, prefix and sys.path. dir is the directory it
// will run in (pyenv picks the version by directory). Results are cached.
func PythonRuntime(python, dir string) (*Runtime, error) {
	key := python + "\x00" + dir
	pyMu.Lock()
	defer pyMu.Unlock()
	if rt, ok := pyCache[key]; ok {
		return rt, nil
	}
	const script = `import sys, json; print(json.dumps([sys.executable, sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, sys.path]))`
	cmd := exec.Command(python, "-I", "-c", script)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("ask %s where it lives: %v: %s", python, err, strings.TrimSpace(errb.String()))
	}
	var res []any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil || len(res) != 6 {
		return nil, fmt.Errorf("ask %s where it lives: unexpected answer %q", python, out.String())
	}
	// -I hides the user site and PYTHONPATH; ask again without it for the bot's own path.
	var full []any
	cmd = exec.Command(python, "-c", script)
	cmd.Dir = dir
	out.Reset()
	cmd.Stdout = &out
	if cmd.Run() == nil && json.Unmarshal(out.Bytes(), &full) == nil && len(full) == 6 {
		res = full
	}
	exe, _ := res[0].(string)
	if exe == "" {
		return nil, fmt.Errorf("%s does not know its own executable", python)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	rt := &Runtime{Exe: exe}
	add := func(p string) {
		if p == "" || !filepath.IsAbs(p) || p == "/" || p == dir {
			return
		}
		if _, err := os.Stat(p); err == nil {
			rt.ReadOnly = append(rt.ReadOnly, p)
		}
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

// pythonFor returns the Python runtime when spec.Path is a Python interpreter or a pyenv shim,
// nil otherwise.
func pythonFor(spec Spec) (*Runtime, error) {
	if !pyName.MatchString(filepath.Base(spec.Path)) {
		return nil, nil
	}
	return PythonRuntime(spec.Path, spec.Dir)
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
