// Package arena carries the arena's own kits inside every binary built from this module: the
// Go kit that Go bots build against (go.mod, go.sum and the Go files of sdk/, proto/ and
// bots/), the Python SDK, and the kit libraries of the stdio languages. arena/kit unpacks them;
// nothing of the arena is ever looked for on disk.
//
// Every pattern names files, never a folder, so that what a developer leaves untracked in a
// checkout (node_modules, target, *.egg-info, __pycache__) can never be embedded; the test
// beside this file checks that the embedded files are exactly the tracked ones (git ls-files).
// A new file at a new depth needs a pattern here, and that test says which.
package arena

import "embed"

// GoKit: the module's go.mod and go.sum and the .go files of sdk/, proto/ and bots/ (tests
// included in the embedding; arena/kit leaves them out when it unpacks).
//
//go:embed go.mod go.sum
//go:embed sdk/*.go sdk/*/*.go sdk/*/*/*.go
//go:embed proto/*/*/*.go
//go:embed bots/*/*.go bots/*/*/*.go bots/*/*/*/*.go
var GoKit embed.FS

// PythonKit: the Python SDK's project (pyproject.toml, README.md, the arena_sdk package),
// without its tests.
//
//go:embed sdk/python/pyproject.toml sdk/python/README.md
//go:embed sdk/python/src/arena_sdk/*.py sdk/python/src/arena_sdk/py.typed
//go:embed sdk/python/src/arena_sdk/*/*.py sdk/python/src/arena_sdk/*/*/*.py
//go:embed sdk/python/src/arena_sdk/*/*/*/*.py sdk/python/src/arena_sdk/*/*/*/*/*.py
//go:embed sdk/python/src/arena_sdk/_pb/*/*.pyi sdk/python/src/arena_sdk/_pb/*/*/*.pyi
var PythonKit embed.FS

// JavaScriptKit: the JavaScript kit library a JavaScript bot requires (NODE_PATH).
//
//go:embed sdk/javascript/package.json sdk/javascript/README.md
//go:embed sdk/javascript/*.js sdk/javascript/lib/*.js
var JavaScriptKit embed.FS

// RustKit: the Rust kit crate a Rust bot depends on by path.
//
//go:embed sdk/rust/Cargo.toml sdk/rust/src/*.rs
var RustKit embed.FS

// JavaKit: the Java kit's sources, on javac's source path.
//
//go:embed sdk/java/arena/*.java
var JavaKit embed.FS

// CppKit: the C++ kit's headers, on the include path.
//
//go:embed sdk/cpp/*.hpp sdk/cpp/arena/*.hpp
var CppKit embed.FS

// TypeScriptKit: the TypeScript kit's package "arena" (its sources, the protocol files it loads,
// its package.json, lockfile and compiler settings), without its tests; arena/build builds it
// once for every TypeScript bot.
//
//go:embed sdk/typescript/package.json sdk/typescript/package-lock.json
//go:embed sdk/typescript/tsconfig.json sdk/typescript/README.md sdk/typescript/src/*.ts
//go:embed sdk/typescript/proto/*/*/*.proto sdk/typescript/proto/*/*/*/*.proto
var TypeScriptKit embed.FS

// KitRoots name each kit's embedding and the folder of the module it holds (its root once
// unpacked).
var KitRoots = map[string]struct {
	FS   embed.FS
	Root string
}{
	"go":         {GoKit, "."},
	"python":     {PythonKit, "sdk/python"},
	"javascript": {JavaScriptKit, "sdk/javascript"},
	"rust":       {RustKit, "sdk/rust"},
	"java":       {JavaKit, "sdk/java"},
	"cpp":        {CppKit, "sdk/cpp"},
	"typescript": {TypeScriptKit, "sdk/typescript"},
}
