package arena

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// kitDocs pairs each kit's READMEs with the sources whose API they describe (the kit and its
// example bots): every API name a README shows must be in them.
var kitDocs = []struct {
	lang    string
	readmes []string // globs
	sources []string // folders
	exts    []string
}{
	{"python", []string{"sdk/python/README.md", "examples/python/README.md", "examples/python/*/README.md"},
		[]string{"sdk/python/src/arena_sdk", "examples/python"}, []string{".py"}},
	{"javascript", []string{"sdk/javascript/README.md", "examples/javascript/README.md", "examples/javascript/*/README.md"},
		[]string{"sdk/javascript/lib", "sdk/javascript/arena.js", "examples/javascript"}, []string{".js"}},
	{"rust", []string{"examples/rust/README.md", "examples/rust/*/README.md"}, []string{"sdk/rust/src", "examples/rust"}, []string{".rs"}},
	{"java", []string{"examples/java/README.md", "examples/java/*/README.md"}, []string{"sdk/java/arena", "examples/java"}, []string{".java"}},
	{"cpp", []string{"examples/cpp/README.md", "examples/cpp/*/README.md"}, []string{"sdk/cpp/arena.hpp", "sdk/cpp/arena", "examples/cpp"}, []string{".hpp", ".cpp", ".h"}},
	{"go", []string{"examples/go/README.md", "examples/go/*/README.md"},
		[]string{"sdk", "examples/go"}, []string{".go"}},
	{"typescript", []string{"sdk/typescript/README.md", "examples/typescript/README.md", "examples/typescript/*/README.md"},
		[]string{"sdk/typescript/src", "examples/typescript"}, []string{".ts"}},
}

var (
	// codeSpan is a Markdown code block or inline code span.
	codeSpan = regexp.MustCompile("(?s)```[^\n]*\n(.*?)```|`([^`\n]+)`")
	// apiName is a name that can only be an identifier of code: camelCase (ownMoney,
	// timeLeftMs) or snake_case (own_money), at least one lower-case letter.
	// fileName is a file or folder named in code (start_game.py, node_modules/), not an API.
	fileName = regexp.MustCompile(`[\w./-]+\.(py|js|go|java|rs|ts|json|jsonl|toml|txt|md|hpp|cpp|h)\b|[\w.-]+/`)
	apiName  = regexp.MustCompile(`\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b|\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b`)
)

// notAPI are names in the kit READMEs that are not the kit's: the protocol's and the
// toolchains', and the seed APIs the compatibility layers take (checked where they are
// implemented).
var notAPI = map[string]bool{
	// toolchains and shells
	"CMakeLists": true, "GenericPlayer": false, "NODE_PATH": true, "executeUserEntryPoint": true,
	"requirements_txt": true, "site_packages": true, "add_executable": true, "target_link_libraries": true,
	"cmake_minimum_required": true, "set_target_properties": true, "target_include_directories": true,
	"include_directories": true, "add_compile_options": true, "CMAKE_CXX_STANDARD": true, "project_name": true,
	"JsonProperty": true, "JavaScript": true, "TypeScript": true, "GitHub": true, "ClassName": true,
	"StackOverflowError": true, "node_modules": true, "MyBot": true, "MyPlayer": true, "PlayerBot": false, "JsSchemer": true, "package_json": true,
}

// TestKitREADMEsMatchTheirCode: every API name (camelCase, snake_case, CamelCase) in the code of
// a kit's README is a name of that kit's sources or its examples: a README that says ownMoney
// where the kit says own_money fails here.
func TestKitREADMEsMatchTheirCode(t *testing.T) {
	for _, k := range kitDocs {
		t.Run(k.lang, func(t *testing.T) {
			var src strings.Builder
			for _, dir := range k.sources {
				err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
					if err != nil {
						return err
					}
					if d.IsDir() && (d.Name() == "node_modules" || d.Name() == "target") {
						return filepath.SkipDir
					}
					if !d.IsDir() && slices.Contains(k.exts, filepath.Ext(p)) {
						b, err := os.ReadFile(p)
						src.Write(b)
						src.WriteByte('\n')
						return err
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			names := map[string]bool{}
			for _, w := range apiName.FindAllString(src.String(), -1) {
				names[w] = true
			}
			if len(names) < 20 {
				t.Fatalf("only %d names in the %s kit's sources: wrong folders?", len(names), k.lang)
			}
			checked := 0
			for _, glob := range k.readmes {
				files, err := filepath.Glob(glob)
				if err != nil || len(files) == 0 {
					t.Fatalf("no README %s (%v)", glob, err)
				}
				for _, f := range files {
					b, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range codeSpan.FindAllStringSubmatch(string(b), -1) {
						code := fileName.ReplaceAllString(m[1]+m[2], " ")
						if strings.HasPrefix(strings.TrimSpace(code), "$") || looksLikeCommand(code) {
							continue
						}
						for _, w := range apiName.FindAllString(code, -1) {
							checked++
							if !names[w] && !notAPI[w] {
								t.Errorf("%s names %q (in %q), which the %s kit's sources do not", f, w, strings.TrimSpace(code), k.lang)
							}
						}
					}
				}
			}
			t.Logf("%s: %d API names in the READMEs checked against %d in the sources", k.lang, checked, len(names))
		})
	}
}

// looksLikeCommand is a code span that is a shell command or a path, not code of the kit.
func looksLikeCommand(code string) bool {
	c := strings.TrimSpace(code)
	for _, p := range []string{"bin/arena", "arena ", "cargo ", "cp ", "mkdir ", "go ", "npm ", "node ", "python", "printf ", "unshare ", "cmake", "javac", "java ", "g++", "make", "pip ", "mvn ", "export ", "./", "sdk/", "examples/", "bots/", "~/", "/"} {
		if strings.HasPrefix(c, p) {
			return true
		}
	}
	return false
}

// TestRustExamplesResolveWithCargo: the Rust examples name the kit by a path dependency that
// cargo resolves in a checkout (editors too); the arena's build points it at its own copy.
func TestRustExamplesResolveWithCargo(t *testing.T) {
	cargo, err := exec.LookPath("cargo")
	if err != nil {
		t.Fatalf("no cargo on PATH (the Rust kit's tests need it): %v", err)
	}
	tomls, _ := filepath.Glob("examples/rust/*/Cargo.toml")
	if len(tomls) == 0 {
		t.Fatal("no Rust examples")
	}
	for _, toml := range tomls {
		cmd := exec.Command(cargo, "metadata", "--offline", "--format-version", "1", "--no-deps", "--manifest-path", toml)
		cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("cargo metadata %s: %v\n%.2000s", toml, err, out)
			continue
		}
		if !strings.Contains(string(out), `"name":"arena"`) || !strings.Contains(string(out), filepath.Join("sdk", "rust")) {
			t.Errorf("%s does not depend on the kit in sdk/rust:\n%.2000s", toml, out)
		}
		os.Remove(filepath.Join(filepath.Dir(toml), "Cargo.lock"))
	}
}

// TestEveryExampleHasAREADME: each language's folder under examples/ and each bot folder in it
// has a README.
func TestEveryExampleHasAREADME(t *testing.T) {
	langs, err := os.ReadDir("examples")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range langs {
		if !l.IsDir() {
			continue
		}
		dirs := []string{filepath.Join("examples", l.Name())}
		if _, err := os.Stat(filepath.Join(dirs[0], "bot.json")); err != nil {
			games, _ := os.ReadDir(dirs[0])
			for _, g := range games {
				if g.IsDir() {
					dirs = append(dirs, filepath.Join(dirs[0], g.Name()))
				}
			}
		}
		for _, d := range dirs {
			n++
			if _, err := os.Stat(filepath.Join(d, "README.md")); err != nil {
				t.Errorf("%s has no README.md", d)
			}
		}
	}
	if n < 30 {
		t.Fatalf("only %d example folders found", n)
	}
}
