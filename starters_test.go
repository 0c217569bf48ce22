package arena

import (
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// starterRule says which tracked files the site's starter kits and rules are made of: every
// example file but the examples' own tests (Go test files) and hidden files, and every
// docs/rules file.
func starterRule(p string) bool {
	if !strings.HasPrefix(p, "examples/") || strings.HasSuffix(p, "_test.go") || strings.HasPrefix(path.Base(p), ".") {
		return false
	}
	return !strings.Contains(p, "/node_modules/") && !strings.Contains(p, "/target/")
}

// TestStartersAreTheTrackedFiles fails when the starter kits embed a file git does not track,
// or miss a tracked example file (a new file at a depth no pattern of starters.go reaches), and
// when Rules misses a rules file.
func TestStartersAreTheTrackedFiles(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z", "examples", "docs/rules").Output()
	if err != nil {
		t.Fatalf("git ls-files (this test needs git and the checkout): %v", err)
	}
	tracked := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	for _, c := range []struct {
		name string
		fsys fs.FS
		rule func(string) bool
	}{
		{"Starters", Starters, starterRule},
		{"Rules", Rules, func(p string) bool { return strings.HasPrefix(p, "docs/rules/") && strings.HasSuffix(p, ".md") }},
	} {
		var embedded []string
		if err := fs.WalkDir(c.fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				embedded = append(embedded, p)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for _, p := range embedded {
			if !slices.Contains(tracked, p) {
				t.Errorf("%s embeds %s, which git does not track: remove it from the checkout (or git add it)", c.name, p)
			} else if !c.rule(p) {
				t.Errorf("%s embeds %s, which is not part of it: narrow its pattern in starters.go", c.name, p)
			}
		}
		for _, p := range tracked {
			if c.rule(p) && !slices.Contains(embedded, p) {
				t.Errorf("%s misses the tracked %s: add a pattern for it in starters.go", c.name, p)
			}
		}
	}
}
