package build

import (
	"errors"
	"fmt"

	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// recipeTSKit versions the TypeScript kit's build below.
const recipeTSKit = "tskit-1"

// TypeScriptKitDir is the built TypeScript kit as a TypeScript bot sees it, in its build and
// when it runs: the package "arena" (its compiled dist/, the protocol files, and the npm
// packages the kit's lockfile pins, the compiler among them), under SDKDir on NODE_PATH.
const TypeScriptKitDir = SDKDir + "/arena"

// kitSource is where the kit's build sees the kit's files.
const kitSource = "/run/src"

// tsKitScript builds the arena's own TypeScript kit: its files as the binary carries them
// and the npm packages its lockfile pins (integrity hashes included), install scripts never
// run. Nothing of a submission is in this sandbox.
const tsKitScript = `set -e
mkdir /run/build/out/arena
cp -R ` + kitSource + `/. /run/build/out/arena/
chmod -R u+w /run/build/out/arena
cd /run/build/out/arena
npm ci --ignore-scripts
npm run build
`

// ErrKitNetwork is the TypeScript kit's first build without the network.
var ErrKitNetwork = errors.New("the TypeScript kit's npm packages are not fetched yet")

// TypeScriptKit builds the arena's TypeScript kit (sdk/typescript, as the binary carries it)
// once per kit and toolchain, in the build sandbox, into the files store: what every
// TypeScript bot compiles against and runs with (at TypeScriptKitDir, read-only). Its npm
// packages come from the registry, so the first build needs the network; later ones, with or
// without it, take the cached kit.
func TypeScriptKit(o Options) (Kit, error) {
	store, err := sandbox.FilesDir()
	if err != nil {
		return Kit{}, err
	}
	return typeScriptKit(o, store)
}

// typeScriptKit builds the kit into store's artefacts.
func typeScriptKit(o Options, store string) (Kit, error) {
	o = o.WithDefaults()
	t, err := ToolFor(submission.TypeScript)
	if err != nil {
		return Kit{}, err
	}
	src, err := unpackKit(kit.TypeScript)
	if err != nil {
		return Kit{}, err
	}
	k := "tskit-" + key(recipeTSKit, src.Hash, tsKitScript, t.Version)
	a, err := cached(store, k, func(dst string) error {
		if !o.Network {
			return fmt.Errorf("%w: its first build fetches them (@grpc/grpc-js, @grpc/proto-loader, typescript, @types/node) from the npm registry, which the organiser allows with --build-network; the built kit is kept, so later builds need no network", ErrKitNetwork)
		}
		s := step{name: "typescript kit build", bot: "the arena's TypeScript kit", path: "/bin/sh", args: []string{"-c", tsKitScript},
			env: t.Env, view: existing(append(append([]string{}, t.View...), networkView...)),
			mounts: []sandbox.Mount{{Host: src.Dir, At: kitSource}}, out: "out"}
		return s.run(o, dst)
	})
	if err != nil {
		// Not the bot's doing: the arena's own kit could not be made here.
		return Kit{}, Cannot("build TypeScript bots", err)
	}
	return Kit{Name: kit.TypeScript, Dir: a.Dir, Hash: src.Hash}, nil
}

// typeScriptRecipe builds a TypeScript bot against the arena's kit: the bot's own npm
// dependencies as a JavaScript bot's, then its build script, or else the kit's compiler on
// the bot's tsconfig.json, with node_modules/arena a link to the kit for the compile only (the
// copy into the artefact leaves links out; at run time NODE_PATH finds the kit). The package
// named arena is the arena's: a submission that brings one of its own (a folder of that name
// under any node_modules, a dependency package.json or the lockfile installs, a build that
// replaces the link, or its own package so named, which Node would resolve to itself) is
// refused, so what a bot imports as "arena" is always the kit.
const typeScriptRecipe = `
kit=` + TypeScriptKitDir + `
own() { find . -path '*/node_modules/arena' -print -prune | head -n 1; }
refuse() {
  echo "$1: the package \"arena\" is the arena's own TypeScript kit (at $kit), built by the arena; a bot may not bring one: remove it (and any dependency named arena from package.json and package-lock.json)" >&2
  exit 2
}
if [ ! -f package.json ] || [ ! -f tsconfig.json ]; then
  echo "a TypeScript bot is a folder with package.json (its \"main\" the compiled entry point, such as dist/bot.js) and tsconfig.json (see examples/typescript)" >&2
  exit 2
fi
if [ "$(node -e 'process.stdout.write(String(require("./package.json").name))')" = arena ]; then refuse "package.json names the bot's package arena"; fi
found=$(own); if [ -n "$found" ]; then refuse "$found"; fi
` + nodeDeps + `
found=$(own); if [ -n "$found" ]; then refuse "$found (installed from package.json or package-lock.json)"; fi
mkdir -p node_modules
ln -s "$kit" node_modules/arena
if [ -n "$build" ]; then npm run build; else node "$kit/node_modules/typescript/bin/tsc" -p tsconfig.json; fi
if [ ! -L node_modules/arena ]; then refuse "node_modules/arena (replaced by the bot's build)"; fi
rm node_modules/arena
rmdir node_modules 2>/dev/null || true
found=$(own); if [ -n "$found" ]; then refuse "$found (written by the bot's build)"; fi
` + nodePrune

// nodeDeps reads a Node bot's package.json (in the sandbox: node itself parses it) and
// installs the dependencies it declares when the folder has none: npm ci from the lockfile (or
// npm install), never running install scripts, and only with the organiser's network.
const nodeDeps = `  deps=$(node -e 'const p=require("./package.json");process.stdout.write(String(Object.keys(Object.assign({},p.dependencies,p.devDependencies)).length))')
  build=$(node -e 'const p=require("./package.json");process.stdout.write(p.scripts&&p.scripts.build?"yes":"")')
  if [ "$deps" != 0 ] && [ ! -d node_modules ]; then
    if [ "$ARENA_NETWORK" != 1 ]; then
      echo "package.json declares $deps dependencies and the folder has no node_modules: fetching them needs the network, which the organiser allows with --build-network" >&2
      exit 2
    fi
    if [ -f package-lock.json ]; then npm ci --ignore-scripts; else npm install --ignore-scripts; fi
  fi`

// nodePrune drops the build-only packages the recipe fetched.
const nodePrune = `  if [ "$deps" != 0 ] && [ "$ARENA_NETWORK" = 1 ]; then npm prune --omit=dev --ignore-scripts; fi`
