//go:build linux && !arenadegraded

package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A module in the current directory named like a standard one must not run during the probe.
func TestPythonProbeIgnoresCurrentDirectory(t *testing.T) {
	py := needPython(t)
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	if err := os.WriteFile(filepath.Join(dir, "json.py"), []byte("open("+pyQuote(marker)+", 'w').write('ran')\nraise SystemExit(3)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = os.Chdir(old) }()
	t.Setenv("PYTHONPATH", dir)
	rt, err := PythonRuntime(py, "json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the probe imported json.py from the current directory")
	}
	for _, p := range rt.ReadOnly {
		if p == dir {
			t.Fatalf("the probe's answer lists the current directory: %v", rt.ReadOnly)
		}
	}
}

// A venv's python stays the venv's python: started as the base binary, the venv is lost.
func TestPythonRuntimeKeepsVenv(t *testing.T) {
	py := needPython(t)
	venv := filepath.Join(t.TempDir(), "venv")
	if out, err := exec.Command(py, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("make a venv: %v\n%s", err, out)
	}
	site, _ := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages"))
	if len(site) != 1 {
		t.Fatalf("no site-packages in %s", venv)
	}
	if err := os.WriteFile(filepath.Join(site[0], "onlyinvenv.py"), []byte("X = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rt, err := PythonRuntime(filepath.Join(venv, "bin", "python"), "onlyinvenv")
	if err != nil {
		t.Fatal(err)
	}
	if rt.Exe != filepath.Join(venv, "bin", "python") {
		t.Fatalf("Exe = %s, want the venv's python", rt.Exe)
	}
	if !strings.Contains(strings.Join(rt.ReadOnly, " "), site[0]) {
		t.Fatalf("the venv's site-packages is not in the view: %v", rt.ReadOnly)
	}
	if _, err := PythonRuntime(py, "onlyinvenv"); err == nil {
		t.Fatal("the base interpreter imports a module only the venv has")
	}
}

func needPython(t *testing.T) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed for this test")
	}
	return py
}

func pyQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "\\'") + "'" }
