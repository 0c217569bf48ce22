package tournament

import (
	"os"
	"path/filepath"
	"testing"
)

func TestUniqueNamesUseParentFolders(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	py := filepath.Join(root, "examples", "python", "auction", "bot.py")
	gd := filepath.Join(root, "examples", "go", "auction")
	for _, d := range []string{filepath.Dir(py), gd} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(py, nil, 0o644)
	es := Unique([]Entry{{Name: "auction", Spec: py}, {Name: "auction", Spec: gd}, {Name: "sample", Spec: "x"},
		{Name: "same", Spec: "/a/b"}, {Name: "same", Spec: "/a/b"}})
	want := []string{"python/auction", "go/auction", "sample", "same", "same#2"}
	for i, w := range want {
		if es[i].Name != w {
			t.Errorf("entry %d named %q, want %q", i, es[i].Name, w)
		}
	}
}
