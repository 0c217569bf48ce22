package starter

import (
	"archive/zip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	arena "github.com/botarena/arena"
	"github.com/botarena/arena/arena/game"
)

// Language is one language the site offers starter kits in.
type Language struct {
	// Name is the examples folder's name (python, go, ...), the kit's name in KitRoots.
	Name string
	// Label is how a page names it.
	Label string
	// Folder is the language's examples folder: one folder per game.
	Folder string
}

// labels name the languages on a page; a language folder missing here is shown by its name.
var labels = map[string]string{
	"python": "Python", "go": "Go", "javascript": "JavaScript", "typescript": "TypeScript",
	"rust": "Rust", "java": "Java", "cpp": "C++",
}

// order puts the languages most visitors start with first; others follow by name.
var order = []string{"python", "javascript", "typescript", "go", "rust", "java", "cpp"}

// ErrNoKit means no starter kit for that language and game.
var ErrNoKit = errors.New("no such starter kit")

// Languages lists every language with examples in the binary.
func Languages() []Language {
	ents, err := fs.ReadDir(arena.Starters, "examples")
	if err != nil {
		return nil // the embedding always has the folder; a build without it has no kits
	}
	var out []Language
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		l := Language{Name: e.Name(), Label: labels[e.Name()], Folder: "examples/" + e.Name()}
		if l.Label == "" {
			l.Label = e.Name()
		}
		out = append(out, l)
	}
	slices.SortStableFunc(out, func(a, b Language) int {
		ia, ib := slices.Index(order, a.Name), slices.Index(order, b.Name)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// Lookup finds a language by name.
func Lookup(name string) (Language, bool) {
	for _, l := range Languages() {
		if l.Name == name {
			return l, true
		}
	}
	return Language{}, false
}

// Has reports whether the language has a starter kit for g, a registered game: its folder of g.
func (l Language) Has(g string) bool {
	if g == "" || strings.ContainsAny(g, "/.\\") {
		return false
	}
	if _, err := game.Lookup(g); err != nil {
		return false
	}
	_, err := fs.Stat(arena.Starters, l.root(g))
	return err == nil
}

func (l Language) root(g string) string { return l.Folder + "/" + g }

// FileName is the kit's download name.
func (l Language) FileName(g string) string { return g + "-" + l.Name + ".zip" }

// Zip writes the starter kit of game g in language l: the example's files under one top folder
// named like the zip.
func (l Language) Zip(w io.Writer, g string) error {
	if !l.Has(g) {
		return fmt.Errorf("%w: %s has no %s example", ErrNoKit, l.Label, g)
	}
	return zipTree(w, arena.Starters, l.root(g), strings.TrimSuffix(l.FileName(g), ".zip"))
}

// FetchesPackages reports whether building the language's starter fetches packages from a
// registry (the starter or its kit pins them in package-lock.json: the TypeScript kit's first
// build fetches its npm packages): such a kit validates only on a server whose builds may use
// the network (arena serve --build-network).
func (l Language) FetchesPackages(g string) bool {
	if !l.Has(g) {
		return false
	}
	if _, err := fs.Stat(arena.Starters, l.root(g)+"/package-lock.json"); err == nil {
		return true
	}
	k, ok := arena.KitRoots[l.Name]
	if !ok {
		return false
	}
	_, err := fs.Stat(k.FS, k.Root+"/package-lock.json")
	return err == nil
}

// HasSDK reports whether the language has a kit library of its own to download.
func (l Language) HasSDK() bool {
	_, ok := arena.KitRoots[l.Name]
	return ok
}

// SDKFileName is the kit library's download name.
func (l Language) SDKFileName() string { return "arena-kit-" + l.Name + ".zip" }

// SDKZip writes the language's kit library as the arena carries it (the Go kit: the module's
// go.mod and its sdk/, proto/ and bots/ packages), test files left out.
func (l Language) SDKZip(w io.Writer) error {
	k, ok := arena.KitRoots[l.Name]
	if !ok {
		return fmt.Errorf("%w: %s has no kit library of its own", ErrNoKit, l.Label)
	}
	return zipTree(w, k.FS, k.Root, strings.TrimSuffix(l.SDKFileName(), ".zip"))
}

// stamp is every entry's time: a kit's bytes depend only on the binary, so a download can be
// cached and compared.
var stamp = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func zipTree(w io.Writer, fsys fs.FS, root, top string) error {
	zw := zip.NewWriter(w)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if root == "." {
			rel = p
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: path.Join(top, rel), Method: zip.Deflate, Modified: stamp}
		h.SetMode(0o644)
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = f.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return zw.Close()
}
