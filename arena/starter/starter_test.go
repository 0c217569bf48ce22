package starter

import (
	"archive/zip"
	"bytes"
	"errors"
	"path"
	"strings"
	"testing"

	arena "github.com/botarena/arena"
	"github.com/botarena/arena/arena/game"
	_ "github.com/botarena/arena/arena/games/all"
)

// entry is the file that makes each language's folder a bot (submission's rules).
var entry = map[string]string{
	"python": "bot.py", "go": "main.go", "javascript": "bot.js", "typescript": "bot.ts",
	"rust": "Cargo.toml", "java": "Bot.java", "cpp": "bot.cpp",
}

func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(rc)
		rc.Close()
		if f.Mode().Perm()&0o444 != 0o444 {
			t.Errorf("%s is not readable by all (%v): an unpacked kit would not be", f.Name, f.Mode())
		}
		out[f.Name] = buf.Bytes()
	}
	return out
}

// TestEveryLanguagePlaysEveryGame: a starter kit for every language and every registered game,
// each one top folder with the README and the file that makes the folder a bot, the same
// bytes every time.
func TestEveryLanguagePlaysEveryGame(t *testing.T) {
	ls := Languages()
	if len(ls) != len(entry) {
		t.Fatalf("languages %v, want the %d of %v", ls, len(entry), entry)
	}
	if ls[0].Name != "python" {
		t.Errorf("the first language offered is %s, want python", ls[0].Name)
	}
	for _, l := range ls {
		for _, g := range game.Names() {
			if !l.Has(g) {
				t.Errorf("%s has no starter kit for %s: add examples/%s/%s", l.Label, g, l.Name, g)
				continue
			}
			var a, b bytes.Buffer
			if err := l.Zip(&a, g); err != nil {
				t.Fatal(err)
			}
			if err := l.Zip(&b, g); err != nil || !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Errorf("%s %s: two zips differ (%v)", l.Name, g, err)
			}
			files := unzip(t, a.Bytes())
			top := strings.TrimSuffix(l.FileName(g), ".zip")
			for name := range files {
				if !strings.HasPrefix(name, top+"/") {
					t.Errorf("%s: %s is outside the top folder %s", l.FileName(g), name, top)
				}
				if strings.HasSuffix(name, "_test.go") {
					t.Errorf("%s: carries the repository's test %s", l.FileName(g), name)
				}
			}
			if len(files[path.Join(top, "README.md")]) == 0 {
				t.Errorf("%s has no README.md", l.FileName(g))
			}
			if _, ok := files[path.Join(top, entry[l.Name])]; !ok {
				t.Errorf("%s has no %s", l.FileName(g), entry[l.Name])
			}
		}
		if l.FetchesPackages("dynamite") != (l.Name == "typescript") {
			t.Errorf("%s: FetchesPackages %v", l.Name, l.FetchesPackages("dynamite"))
		}
		if l.Has("nosuchgame") || l.Has("../go") || l.Has("") {
			t.Errorf("%s claims a kit for a game that does not exist", l.Name)
		}
		if err := l.Zip(&bytes.Buffer{}, "../python"); !errors.Is(err, ErrNoKit) {
			t.Errorf("%s: a climbing game name gave %v", l.Name, err)
		}
	}
}

// TestKitLibraries: every language offers its kit library, the files the arena builds that
// language's bots with.
func TestKitLibraries(t *testing.T) {
	for _, l := range Languages() {
		if !l.HasSDK() {
			if err := l.SDKZip(&bytes.Buffer{}); !errors.Is(err, ErrNoKit) {
				t.Errorf("%s: SDKZip gave %v, want ErrNoKit", l.Name, err)
			}
			t.Errorf("%s: no kit library", l.Name)
			continue
		}
		var buf bytes.Buffer
		if err := l.SDKZip(&buf); err != nil {
			t.Fatal(err)
		}
		files := unzip(t, buf.Bytes())
		if _, ok := arena.KitRoots[l.Name]; !ok || len(files) == 0 {
			t.Errorf("%s: an empty kit library", l.Name)
		}
		for name := range files {
			if !strings.HasPrefix(name, "arena-kit-"+l.Name+"/") || strings.HasSuffix(name, "_test.go") {
				t.Errorf("%s kit library: %s", l.Name, name)
			}
		}
	}
}
