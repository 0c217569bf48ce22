package arena

import (
	"io/fs"
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// kitRule says which tracked files of the checkout belong in each kit (relative to the
// module root): the same intent as the embedding's patterns, said another way.
var kitRule = map[string]func(p string) bool{
	"go": func(p string) bool {
		if p == "go.mod" || p == "go.sum" {
			return true
		}
		top, _, _ := strings.Cut(p, "/")
		return (top == "sdk" || top == "proto" || top == "bots") && strings.HasSuffix(p, ".go")
	},
	"python": func(p string) bool {
		return p == "sdk/python/pyproject.toml" || p == "sdk/python/README.md" || strings.HasPrefix(p, "sdk/python/src/arena_sdk/")
	},
	"javascript": func(p string) bool {
		return strings.HasPrefix(p, "sdk/javascript/") && !strings.HasPrefix(p, "sdk/javascript/test/")
	},
	"rust": func(p string) bool {
		return p == "sdk/rust/Cargo.toml" || strings.HasPrefix(p, "sdk/rust/src/")
	},
	"java": func(p string) bool { return strings.HasPrefix(p, "sdk/java/arena/") },
	"cpp": func(p string) bool {
		return strings.HasPrefix(p, "sdk/cpp/") && !strings.HasPrefix(p, "sdk/cpp/test/")
	},
	"typescript": func(p string) bool {
		return strings.HasPrefix(p, "sdk/typescript/") && !strings.HasPrefix(p, "sdk/typescript/test/") && p != "sdk/typescript/.gitignore"
	},
}

// TestKitsAreTheTrackedFiles fails when a kit embeds a file git does not track (a developer's
// untracked file matched by a pattern: remove it, or git add it) or misses a tracked file of
// its tree (a new file at a depth no pattern reaches: add a pattern in kits.go).
func TestKitsAreTheTrackedFiles(t *testing.T) {
	out, err := exec.Command("git", "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files (this test needs git and the checkout): %v", err)
	}
	tracked := strings.Split(strings.TrimRight(string(out), "\x00"), "\x00")
	if len(kitRule) != len(KitRoots) {
		t.Fatalf("kitRule names %d kits, KitRoots %d", len(kitRule), len(KitRoots))
	}
	for name, r := range KitRoots {
		rule := kitRule[name]
		if rule == nil {
			t.Fatalf("kit %s has no rule in this test", name)
		}
		var embedded []string
		if err := fs.WalkDir(r.FS, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				embedded = append(embedded, p)
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, p := range tracked {
			if rule(p) {
				want = append(want, p)
			}
		}
		for _, p := range embedded {
			if !slices.Contains(tracked, p) {
				t.Errorf("kit %s embeds %s, which git does not track: remove it from the checkout (or git add it)", name, p)
			} else if !rule(p) {
				t.Errorf("kit %s embeds %s, which is not part of that kit: narrow its pattern in kits.go", name, p)
			}
		}
		for _, p := range want {
			if !slices.Contains(embedded, p) {
				t.Errorf("kit %s misses the tracked file %s: add a pattern for %s in kits.go", name, p, path.Dir(p)+"/*"+path.Ext(p))
			}
		}
		if len(embedded) == 0 {
			t.Errorf("kit %s is empty", name)
		}
		for _, p := range embedded {
			if !strings.HasPrefix(p, r.Root+"/") && r.Root != "." {
				t.Errorf("kit %s embeds %s outside its root %s", name, p, r.Root)
			}
		}
	}
}
