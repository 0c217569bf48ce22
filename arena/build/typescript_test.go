package build

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/botarena/arena/arena/submission"
)

// A TypeScript bot's folder, as the starters are: bot.json, package.json, tsconfig.json and
// bot.ts, which imports the kit as "arena".
var tsBot = map[string]string{
	"bot.json":     `{"name": "tsbot", "language": "typescript", "protocol": "grpc"}`,
	"package.json": `{"name": "tsbot", "version": "1.0.0", "private": true, "main": "dist/bot.js"}`,
	"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "commonjs", "lib": ["ES2022"], "types": ["node"],
  "typeRoots": ["node_modules/arena/node_modules/@types"], "outDir": "dist", "strict": true, "skipLibCheck": true},
  "files": ["bot.ts"]}`,
	"bot.ts": `import { serve } from "arena";
import type { DynamiteSeat, DynamiteMove } from "arena";
const dynamite = (_: DynamiteSeat): DynamiteMove => "DYNAMITE_MOVE_ROCK";
serve({ name: "tsbot", author: "tests", strategies: { dynamite } });
`,
}

// writeBot writes the bot's files, with the changes (a file's new text; "" removes it).
func writeBot(t *testing.T, changes map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{}
	for k, v := range tsBot {
		files[k] = v
	}
	for k, v := range changes {
		files[k] = v
	}
	for name, text := range files {
		if text == "" {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeHash names every file below dir by its path and bytes.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		h.Write([]byte(p + "\x00"))
		h.Write(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// TestTypeScriptKitIsTheArenas is the hostile test of the TypeScript kit, a build input: the
// kit every TypeScript bot compiles against and runs with is built from the arena's own files
// only, and no submission replaces it, writes into it or runs code outside the sandbox. A
// submission that brings a package named arena in any way (its own node_modules/arena, a
// dependency in package.json and package-lock.json, a build script that swaps the link, its
// own package so named) is refused, naming the problem; its copies of the kit's files
// (sdk/typescript, a tsconfig path to them) change nothing; install scripts never run; and
// after all of it the kit's files are byte for byte what they were.
func TestTypeScriptKitIsTheArenas(t *testing.T) {
	if _, err := ToolFor(submission.TypeScript); err != nil {
		t.Fatalf("this test builds TypeScript bots: %v", err)
	}
	o := Options{Network: true} // the kit's first build fetches its npm packages
	sdk, err := TypeScriptKit(o)
	if err != nil {
		t.Fatal(err)
	}
	before := treeHash(t, sdk.Dir)
	hostMarker := filepath.Join(t.TempDir(), "ran-on-the-host")
	poison := `throw new Error("the submission's own arena kit ran")`

	refused := []struct {
		name    string
		changes map[string]string
		want    string // in the build's error
	}{
		{"its own node_modules/arena", map[string]string{
			"node_modules/arena/package.json": `{"name": "arena", "main": "index.js"}`,
			"node_modules/arena/index.js":     poison,
		}, "./node_modules/arena: the package \"arena\" is the arena's own TypeScript kit"},
		{"a deeper node_modules/arena, which Node finds first from dist/", map[string]string{
			"dist/node_modules/arena/index.js": poison,
		}, "./dist/node_modules/arena: the package \"arena\" is the arena's own"},
		{"a dependency named arena, from package.json and package-lock.json", map[string]string{
			"package.json":      `{"name": "tsbot", "version": "1.0.0", "main": "dist/bot.js", "dependencies": {"arena": "file:fake"}}`,
			"package-lock.json": `{"name": "tsbot", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {"": {"name": "tsbot", "version": "1.0.0", "dependencies": {"arena": "file:fake"}}, "fake": {"name": "arena", "version": "9.9.9"}, "node_modules/arena": {"resolved": "fake", "link": true}}}`,
			"fake/package.json": `{"name": "arena", "version": "9.9.9", "main": "index.js"}`,
			"fake/index.js":     poison,
		}, "(installed from package.json or package-lock.json)"},
		{"a package named arena, which Node would resolve to itself", map[string]string{
			"package.json": `{"name": "arena", "version": "1.0.0", "main": "dist/bot.js", "exports": {".": "./evil.js"}}`,
			"evil.js":      poison,
		}, "package.json names the bot's package arena"},
		{"a build script that swaps the link for its own kit", map[string]string{
			"package.json": `{"name": "tsbot", "version": "1.0.0", "main": "dist/bot.js", "scripts": {"build": "rm node_modules/arena && mkdir node_modules/arena && cp evil.js node_modules/arena/index.js"}}`,
			"evil.js":      poison,
		}, "node_modules/arena (replaced by the bot's build)"},
	}
	for _, c := range refused {
		t.Run(c.name, func(t *testing.T) {
			dir := writeBot(t, c.changes)
			_, err := Stdio(o, StdioBot{Name: c.name, Kind: submission.TypeScript, Snap: snapshot(t, dir)}, filepath.Join(t.TempDir(), "files"))
			if !errors.Is(err, ErrBuild) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("built, or refused without naming it (want %q): %v", c.want, err)
			}
		})
	}

	t.Run("copies of the kit, writes into it, install scripts", func(t *testing.T) {
		dir := writeBot(t, map[string]string{
			// Its own copy of the kit where the repository keeps it, and a compiler path to it.
			"sdk/typescript/package.json": `{"name": "arena", "main": "src/index.js"}`,
			"sdk/typescript/src/index.js": poison,
			"tsconfig.json": `{"compilerOptions": {"target": "ES2022", "module": "commonjs", "lib": ["ES2022"], "types": ["node"],
  "typeRoots": ["node_modules/arena/node_modules/@types"], "outDir": "dist", "skipLibCheck": true, "baseUrl": ".",
  "paths": {"arena-copy": ["sdk/typescript/src"]}}, "files": ["bot.ts"]}`,
			// Install scripts (never run: npm ci --ignore-scripts) of the bot and of a dependency.
			"package.json": `{"name": "tsbot", "version": "1.0.0", "main": "dist/bot.js", "dependencies": {"dep": "file:dep"},
  "scripts": {"preinstall": "touch ran-preinstall", "postinstall": "touch ran-postinstall",
    "build": "(echo poisoned >> node_modules/arena/dist/index.js) 2>/dev/null; (touch ` + hostMarker + `) 2>/dev/null; node node_modules/arena/node_modules/typescript/bin/tsc -p tsconfig.json"}}`,
			"dep/package.json": `{"name": "dep", "version": "1.0.0", "scripts": {"install": "touch \"$INIT_CWD/ran-dep-install\""}}`,
		})
		a, err := Stdio(o, StdioBot{Name: "copies", Kind: submission.TypeScript, Snap: snapshot(t, dir)}, filepath.Join(t.TempDir(), "files"))
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.ReadFile(filepath.Join(a.Dir, "dist", "bot.js"))
		if err != nil || !strings.Contains(string(out), `require("arena")`) {
			t.Fatalf("the bot was not compiled to import the kit as \"arena\": %v\n%s", err, out)
		}
		for _, f := range []string{"ran-preinstall", "ran-postinstall", "ran-dep-install", "node_modules/arena"} {
			if _, err := os.Lstat(filepath.Join(a.Dir, f)); err == nil {
				t.Errorf("the build's output holds %s", f)
			}
		}
		if _, err := os.Stat(hostMarker); err == nil {
			t.Error("the bot's build script wrote a file on the host")
		}
	})

	if after := treeHash(t, sdk.Dir); after != before {
		t.Fatal("the arena's TypeScript kit changed while submissions were built")
	}
	// The kit is the arena's files: its sources are the embedded ones, not a submission's.
	k, err := TypeScriptKit(o)
	if err != nil || k.Dir != sdk.Dir {
		t.Fatalf("the kit's second build: %v (%s, then %s)", err, sdk.Dir, k.Dir)
	}
	b, err := os.ReadFile(filepath.Join(sdk.Dir, "arena", "dist", "index.js"))
	if err != nil || strings.Contains(string(b), "submission's own") || !strings.Contains(string(b), `require("./guard")`) {
		t.Fatalf("the kit's index is not the arena's: %v\n%s", err, b)
	}
}

// Without the network, and before any networked build made it, the TypeScript kit cannot be
// built: the error says so and names the fix, and it is not the bot's fault.
func TestTypeScriptKitNeedsTheNetworkOnce(t *testing.T) {
	_, err := typeScriptKit(Options{}, filepath.Join(t.TempDir(), "files")) // a store with no kit built
	if !errors.Is(err, ErrKitNetwork) || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "--build-network") {
		t.Fatalf("the kit's first build without the network: %v", err)
	}
}
