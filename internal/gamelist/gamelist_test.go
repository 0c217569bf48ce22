package gamelist_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/internal/gamelist"
)

var root = filepath.Join("..", "..")

// TestGeneratedFileIsFresh: arena/games/all/all.go imports exactly the game folders.
func TestGeneratedFileIsFresh(t *testing.T) {
	want, err := gamelist.Source(root)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(root, gamelist.Path))
	if err != nil {
		t.Fatalf("%v: run scripts/generate.sh", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is stale (the game folders under arena/games changed): run scripts/generate.sh and commit the result\nwant:\n%s", gamelist.Path, want)
	}
}

// TestFolderIsAGame: a folder with an engine file registers; one with only tests, or none,
// does not; an empty tree is an error naming what a game is.
func TestFolderIsAGame(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"arena/games/all/all.go":        "package all\n",
		"arena/games/coin/coin.go":      "package coin\n",
		"arena/games/notes/x_test.go":   "package notes\n",
		"arena/games/empty/README.md":   "",
		"arena/games/zebra/doc.go":      "package zebra\n",
		"arena/games/loose-file.go.txt": "",
	}
	for p, s := range files {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	src, err := gamelist.Source(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`_ "github.com/botarena/arena/arena/games/coin"`, `arena/games/zebra"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("all.go lacks %s:\n%s", want, src)
		}
	}
	for _, not := range []string{"notes", "empty", "games/all"} {
		if strings.Contains(string(src), not) {
			t.Errorf("all.go imports %s:\n%s", not, src)
		}
	}
	if _, err := gamelist.Source(t.TempDir()); err == nil {
		t.Error("a tree without arena/games gave no error")
	}
}
