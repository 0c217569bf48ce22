package tournament

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(p, s string, mode os.FileMode) {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("alice/bot.json", `{"name":"alice","author":"A","language":"python","command":"main.py:Bot"}`, 0o644)
	write("alice/main.py", "", 0o644)
	write("bob.py", "", 0o644)
	write("carol/main.go", "package main", 0o644)
	write("dave/bot.py", "", 0o644)
	write("erin", "#!/bin/sh\n", 0o755)
	write("README.md", "hello", 0o644)
	es, skipped, err := Folder(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		// A bot folder is the submission, all of it (helper modules beside the bot).
		{Name: "alice", Spec: filepath.Join(dir, "alice"), Author: "A", Language: "python"},
		{Name: "bob", Spec: filepath.Join(dir, "bob.py"), Language: "python"},
		{Name: "carol", Spec: filepath.Join(dir, "carol"), Language: "go"},
		{Name: "dave", Spec: filepath.Join(dir, "dave"), Language: "python"},
		{Name: "erin", Spec: filepath.Join(dir, "erin"), Language: "exec"},
	}
	if len(es) != len(want) {
		t.Fatalf("got %+v", es)
	}
	for i := range want {
		if es[i] != want[i] {
			t.Errorf("entry %d: got %+v, want %+v", i, es[i], want[i])
		}
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], "README.md") {
		t.Errorf("skipped %v", skipped)
	}
	// The folder given as one argument expands; a bot folder given directly does not.
	es2, _, err := FromArgs([]string{dir, filepath.Join(dir, "carol")})
	if err != nil || len(es2) != 6 || es2[5].Name != "carol#2" {
		t.Fatalf("FromArgs: %+v %v", es2, err)
	}
}

func TestBadManifest(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"no command":  `{"name":"x"}`,
		"escapes":     `{"command":"../evil.py"}`,
		"unknown key": `{"command":"bot.py","cmd":"y"}`,
		"not json":    `name = x`,
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "x"), 0o755)
			os.WriteFile(filepath.Join(dir, "x", ManifestName), []byte(body), 0o644)
			if _, _, err := Folder(dir); err == nil || !strings.Contains(err.Error(), ManifestName) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// A loose .js file in a folder of submissions plays like a loose .py file; a lone source file
// of a language whose bots are folders is refused by name, not skipped unseen.
func TestFolderLooseFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "frank.js"), []byte("//"), 0o644)
	os.WriteFile(filepath.Join(dir, "bob.py"), []byte(""), 0o644)
	es, skipped, err := Folder(dir)
	if err != nil || len(skipped) != 0 || len(es) != 2 || es[1].Name != "frank" || es[1].Language != "javascript" {
		t.Fatalf("got %+v, skipped %v, %v", es, skipped, err)
	}
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main"), 0o644)
	if _, _, err := Folder(dir); err == nil || !strings.Contains(err.Error(), "main.go") || !strings.Contains(err.Error(), "folder") {
		t.Fatalf("a lone .go file: %v", err)
	}
}

// A missing submissions folder says what is missing, not how many bots are left.
func TestFromArgsMissingFolder(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "submissions")
	_, _, err := FromArgs([]string{missing})
	if err == nil || !strings.Contains(err.Error(), "submissions") || !strings.Contains(err.Error(), "folder of submissions") {
		t.Fatalf("err = %v", err)
	}
	if es, _, err := FromArgs([]string{"house:dynamite/paper"}); err != nil || len(es) != 1 {
		t.Fatalf("a house bot: %+v %v", es, err)
	}
}
