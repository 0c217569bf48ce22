package sdk_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/botarena/arena/"

// goPackage is the parsed non-test files of one directory.
type goPackage struct {
	name    string
	imports []string
	files   []*ast.File
}

func parseDir(t *testing.T, dir string) *goPackage {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &goPackage{}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		full, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		p.name = f.Name.Name
		p.files = append(p.files, full)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			p.imports = append(p.imports, path)
		}
	}
	return p
}

// gameDirs lists the SDK's game packages: every Go package directory of sdk/ but the core's
// helpers and the generic any-game path (the Python SDK and the other languages' kits hold no
// Go file).
func gameDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		goFiles, _ := filepath.Glob(filepath.Join(e.Name(), "*.go"))
		if e.IsDir() && len(goFiles) > 0 && !slices.Contains([]string{"handshake", "internal", "anygame"}, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestGamePackagesMirrorThePythonSDK: each Go game package sdk/<game> is package <game> with
// its registry name and a Play function, and the Python SDK has arena_sdk/<game>.py for the
// same game, and no game the Go SDK lacks.
func TestGamePackagesMirrorThePythonSDK(t *testing.T) {
	t.Parallel()
	games := gameDirs(t)
	if len(games) < 5 {
		t.Fatalf("game packages %v", games)
	}
	for _, g := range games {
		p := parseDir(t, g)
		if p.name != g {
			t.Errorf("sdk/%s is package %s, want %s", g, p.name, g)
		}
		var name string
		var play bool
		for _, f := range p.files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					play = play || d.Recv == nil && d.Name.Name == "Play"
				case *ast.GenDecl:
					for _, s := range d.Specs {
						if v, ok := s.(*ast.ValueSpec); ok && len(v.Names) == 1 && v.Names[0].Name == "Name" && len(v.Values) == 1 {
							if lit, ok := v.Values[0].(*ast.BasicLit); ok {
								name, _ = strconv.Unquote(lit.Value)
							}
						}
					}
				}
			}
		}
		if name != g || !play {
			t.Errorf("sdk/%s: const Name = %q and func Play present %v, want %q and true", g, name, play, g)
		}
		py, err := os.ReadFile(filepath.Join("python", "src", "arena_sdk", g+".py"))
		if err != nil || !strings.Contains(string(py), `GAME: Final = "`+g+`"`) {
			t.Errorf("sdk/%s has no Python twin arena_sdk/%s.py with GAME = %q (%v)", g, g, g, err)
		}
	}
	pyFiles, _ := filepath.Glob(filepath.Join("python", "src", "arena_sdk", "*.py"))
	game := regexp.MustCompile(`(?m)^GAME: Final = "(\w+)"`)
	for _, f := range pyFiles {
		b, _ := os.ReadFile(f)
		if m := game.FindSubmatch(b); m != nil && !slices.Contains(games, string(m[1])) {
			t.Errorf("the Python SDK plays %s (%s), the Go SDK has no sdk/%s", m[1], f, m[1])
		}
	}
}

// TestSDKLayers: the SDK never imports the arena, the handshake imports nothing else of the
// SDK (the host imports only it), and the core imports no game package.
func TestSDKLayers(t *testing.T) {
	t.Parallel()
	dirs := append([]string{".", "handshake", "anygame", filepath.Join("internal", "seat")}, gameDirs(t)...)
	for _, dir := range dirs {
		p := parseDir(t, dir)
		for _, imp := range p.imports {
			rel, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			switch {
			case strings.HasPrefix(rel, "arena/"):
				t.Errorf("sdk/%s imports %s: the SDK never imports the arena", dir, imp)
			case dir == "handshake" && strings.HasPrefix(rel, "sdk"):
				t.Errorf("sdk/handshake imports %s: the host's one SDK import must stay alone", imp)
			case dir == "." && strings.HasPrefix(rel, "sdk/") && rel != "sdk/handshake" && rel != "sdk/internal/seat":
				t.Errorf("sdk imports %s: the core knows no game package", imp)
			}
		}
	}
}
