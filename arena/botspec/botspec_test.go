package botspec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	py := write("bot.py", "", 0o644)
	exe := write("run.sh", "#!/bin/sh\n", 0o755)
	plain := write("data.txt", "", 0o644)
	gofile := write("gobot/main.go", "package main\nfunc main() {}\n", 0o644)
	write("lib/lib.go", "package lib\n", 0o644)
	write("lib/main_test.go", "package main\n", 0o644)
	cases := []struct {
		arg   string
		kind  Kind
		class string
		err   error
	}{
		{py, Python, "", nil},
		{py + ":Mine", Python, "Mine", nil},
		{exe, Exec, "", nil},
		{filepath.Dir(gofile), GoPkg, "", nil},
		{gofile, "", "", ErrUnknownKind},
		{filepath.Join(dir, "lib"), "", "", ErrUnknownKind},
		{plain, "", "", ErrNotExecutable},
		{filepath.Join(dir, "missing.py"), "", "", ErrMissing},
		{dir, "", "", ErrUnknownKind},
	}
	for _, c := range cases {
		s, err := Parse(c.arg)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || s.Kind != c.kind || s.Class != c.class {
			t.Errorf("%s: %+v %v, want kind %s class %q", c.arg, s, err, c.kind, c.class)
		}
	}
}
