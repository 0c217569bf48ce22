package submission

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFile(t *testing.T, dir, name, text string, mode os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParse(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	py := writeFile(t, dir, "loose.py", "", 0o644)
	exe := writeFile(t, dir, "run.sh", "#!/bin/sh\n", 0o755)
	plain := writeFile(t, dir, "data.txt", "", 0o644)
	gofile := writeFile(t, dir, "gobot/main.go", "package main\nfunc main() {}\n", 0o644)
	writeFile(t, dir, "pybot/bot.py", "", 0o644)
	writeFile(t, dir, "manifest/bot.json", `{"name": "m", "command": "strategy.py:Mine"}`, 0o644)
	writeFile(t, dir, "manifest/strategy.py", "", 0o644)
	writeFile(t, dir, "gomod/bot.json", `{"command": "cmd/bot"}`, 0o644)
	writeFile(t, dir, "gomod/cmd/bot/main.go", "package main\n", 0o644)
	writeFile(t, dir, "escape/bot.json", `{"command": "../loose.py"}`, 0o644)
	writeFile(t, dir, "unknown/bot.json", `{"command": "x.py", "extra": 1}`, 0o644)
	writeFile(t, dir, "empty/README", "", 0o644)
	cases := []struct {
		arg          string
		kind         Kind
		entry, class string
		err          error
	}{
		{py, Python, "loose.py", "", nil},
		{py + ":Mine", Python, "loose.py", "Mine", nil},
		{exe, Exec, "run.sh", "", nil},
		{filepath.Dir(gofile), Go, ".", "", nil},
		{filepath.Join(dir, "pybot"), Python, "bot.py", "", nil},
		{filepath.Join(dir, "manifest"), Python, "strategy.py", "Mine", nil},
		{filepath.Join(dir, "gomod"), Go, "cmd/bot", "", nil},
		{gofile, "", "", "", ErrUnknownKind},
		{plain, "", "", "", ErrNotExecutable},
		{filepath.Join(dir, "missing.py"), "", "", "", ErrMissing},
		{filepath.Join(dir, "empty"), "", "", "", ErrUnknownKind},
		{filepath.Join(dir, "escape"), "", "", "", ErrManifest},
		{filepath.Join(dir, "unknown"), "", "", "", ErrManifest},
	}
	for _, c := range cases {
		s, err := Parse(c.arg)
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || s.Kind != c.kind || s.Entry != c.entry || s.Class != c.class {
			t.Errorf("%s: %+v %v, want kind %s entry %q class %q", c.arg, s, err, c.kind, c.entry, c.class)
		}
	}
}

func TestSnapshotHoldsOnlyTheSubmission(t *testing.T) {
	t.Parallel()
	subs, store := t.TempDir(), t.TempDir()
	writeFile(t, subs, "neighbour.py", "SECRET = 1\n", 0o644)
	lone := writeFile(t, subs, "lone.py", "x = 1\n", 0o644)
	writeFile(t, subs, "folder/bot.py", "import helper\n", 0o644)
	writeFile(t, subs, "folder/helper.py", "y = 2\n", 0o644)
	writeFile(t, subs, "folder/.git/config", "hidden\n", 0o644)
	writeFile(t, subs, "folder/__pycache__/helper.pyc", "cache\n", 0o644)
	take := func(arg string) Snapshot {
		t.Helper()
		src, err := Parse(arg)
		if err != nil {
			t.Fatal(err)
		}
		s, err := Take(src, store, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	names := func(dir string) []string {
		var out []string
		_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() {
				rel, _ := filepath.Rel(dir, p)
				out = append(out, rel)
			}
			return nil
		})
		return out
	}
	a := take(lone)
	if got := names(a.Dir); len(got) != 1 || got[0] != "lone.py" {
		t.Fatalf("a single file's snapshot holds %v", got)
	}
	b := take(filepath.Join(subs, "folder"))
	if got := names(b.Dir); len(got) != 2 || got[0] != "bot.py" || got[1] != "helper.py" {
		t.Fatalf("a folder's snapshot holds %v", got)
	}
	// Same content, same hash; one byte more, another.
	if again := take(lone); again.Hash != a.Hash || again.Dir != a.Dir {
		t.Fatalf("the same file got another snapshot: %s vs %s", again.Hash, a.Hash)
	}
	writeFile(t, subs, "lone.py", "x = 2\n", 0o644)
	if changed := take(lone); changed.Hash == a.Hash {
		t.Fatal("a changed file kept its hash")
	}
	if st, err := os.Stat(filepath.Join(b.Dir, "bot.py")); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("snapshot file mode: %v %v", st, err)
	}
}

func TestSnapshotRefusesLinksAndSize(t *testing.T) {
	t.Parallel()
	subs, store := t.TempDir(), t.TempDir()
	writeFile(t, subs, "linked/bot.py", "", 0o644)
	if err := os.Symlink("/etc/shadow", filepath.Join(subs, "linked", "shadow.txt")); err != nil {
		t.Fatal(err)
	}
	src, _ := Parse(filepath.Join(subs, "linked"))
	if _, err := Take(src, store, Limits{}); !errors.Is(err, ErrLink) {
		t.Fatalf("a symlink in a submission: %v", err)
	}
	writeFile(t, subs, "big/bot.py", "", 0o644)
	writeFile(t, subs, "big/model.bin", string(make([]byte, 4096)), 0o644)
	src, _ = Parse(filepath.Join(subs, "big"))
	if _, err := Take(src, store, Limits{Bytes: 1024}); !errors.Is(err, ErrTooBig) {
		t.Fatalf("a submission over the size limit: %v", err)
	}
	if _, err := Take(src, store, Limits{Files: 1}); !errors.Is(err, ErrTooBig) {
		t.Fatalf("a submission over the file limit: %v", err)
	}
}

// TestLanguages: each language is recognised from its usual files (docs/protocol.md section
// 12) or from bot.json, with the protocol it speaks by default.
func TestLanguages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"js/package.json": "{}", "rust/Cargo.toml": "", "mvn/pom.xml": "", "javac/Bot.java": "", "cmake/CMakeLists.txt": "",
		"make/Makefile": "", "gxx/bot.cpp": "", "cc/main.cc": "",
		"ts/bot.json": `{"language": "typescript", "protocol": "grpc"}`, "ts/package.json": "{}",
		"custom/bot.json": `{"language": "cpp", "build": "g++ -o b main.cpp", "run": "./b --fast"}`, "custom/main.cpp": "",
		"exe/bot.json": `{"run": "./prog", "protocol": "stdio"}`, "exe/prog": "",
		"norun/bot.json":    `{"language": "exec"}`,
		"badproto/bot.json": `{"run": "./prog", "protocol": "http"}`,
		"badlang/bot.json":  `{"language": "cobol"}`,
		"both/bot.json":     `{"run": "./a", "command": "./a"}`,
	}
	for name, text := range files {
		writeFile(t, dir, name, text, 0o644)
	}
	writeFile(t, dir, "loose.js", "", 0o644)
	writeFile(t, dir, "loose.cpp", "", 0o644)
	cases := []struct {
		arg      string
		kind     Kind
		protocol string
		run      string
		err      error
	}{
		{"js", JavaScript, Stdio, "", nil},
		{"loose.js", JavaScript, Stdio, "", nil},
		{"rust", Rust, Stdio, "", nil},
		{"mvn", Java, Stdio, "", nil},
		{"javac", Java, Stdio, "", nil},
		{"cmake", Cpp, Stdio, "", nil},
		{"make", Cpp, Stdio, "", nil},
		{"gxx", Cpp, Stdio, "", nil},
		{"cc", Cpp, Stdio, "", nil},
		{"ts", TypeScript, GRPC, "", nil},
		{"custom", Cpp, Stdio, "./b --fast", nil},
		{"exe", Exec, Stdio, "./prog", nil},
		{"loose.cpp", "", "", "", ErrUnknownKind},
		{"norun", "", "", "", ErrManifest},
		{"badproto", "", "", "", ErrManifest},
		{"badlang", "", "", "", ErrManifest},
		{"both", "", "", "", ErrManifest},
	}
	for _, c := range cases {
		s, err := Parse(filepath.Join(dir, c.arg))
		if c.err != nil {
			if !errors.Is(err, c.err) {
				t.Errorf("%s: error %v, want %v", c.arg, err, c.err)
			}
			continue
		}
		if err != nil || s.Kind != c.kind || s.Protocol != c.protocol || strings.Join(s.Run, " ") != c.run {
			t.Errorf("%s: %+v %v, want kind %s protocol %s run %q", c.arg, s, err, c.kind, c.protocol, c.run)
		}
		if !IsBotFolder(filepath.Join(dir, c.arg)) && !strings.Contains(c.arg, ".") {
			t.Errorf("%s is not a bot folder", c.arg)
		}
	}
}
