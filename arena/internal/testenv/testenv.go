// Package testenv is what integration tests share about the machine: the Python interpreter
// with the arena SDK (scripts/test.sh makes a virtual environment and sets ARENA_PYTHON).
package testenv

import (
	"fmt"
	"os"
	"os/exec"
)

// Python is the interpreter bots run with: $ARENA_PYTHON, or python3.
func Python() string {
	if p := os.Getenv("ARENA_PYTHON"); p != "" {
		return p
	}
	return "python3"
}

// CheckPython makes sure Python can import the given modules, with the fix when it cannot.
func CheckPython(modules string) error {
	out, err := exec.Command(Python(), "-c", "import "+modules).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s cannot import %s (%v): make a venv with the SDK (python3 -m venv .venv && .venv/bin/pip install './sdk/python[test]') and set ARENA_PYTHON=.venv/bin/python, as scripts/test.sh does\n%s",
			Python(), modules, err, out)
	}
	return nil
}
