package arena

import "embed"

// Rules are the rules of every game, docs/rules/<game>.md: the one text the engines cite and
// the site shows on each game's page (arena/server renders them), so the two never differ.
//
//go:embed docs/rules/*.md
var Rules embed.FS

// Starters are the examples a stranger downloads from the site as starter kits: each
// language's folder per game (examples/<language>/<game>, with its README). The site zips them
// as they are, so a kit uploaded back unchanged is exactly the example the arena's own tests
// play. The examples' own tests are left out (Go test files): they test the example against
// this repository.
//
//go:embed examples/*/README.md examples/*/*/README.md
//go:embed examples/python/*/*.py examples/go/*/main.go examples/javascript/*/*.js examples/javascript/*/package.json
//go:embed examples/rust/*/Cargo.toml examples/rust/*/src/*.rs examples/java/*/*.java
//go:embed examples/cpp/*/*.cpp examples/cpp/*/Makefile examples/cpp/*/CMakeLists.txt
//go:embed examples/typescript/*/bot.json examples/typescript/*/package.json
//go:embed examples/typescript/*/tsconfig.json examples/typescript/*/bot.ts
var Starters embed.FS
