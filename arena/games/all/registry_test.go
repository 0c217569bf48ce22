package all_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/botarena/arena/arena/game"
	"github.com/botarena/arena/arena/game/gametest"
	_ "github.com/botarena/arena/arena/games/all"
	"github.com/botarena/arena/arena/match"
	"github.com/botarena/arena/bots/house"
	arenav1 "github.com/botarena/arena/proto/arena/v1"
)

// TestEveryGame is the one test a game needs: it runs the contract suite, the payload bound and
// the short match's golden playthrough (testdata/short.golden) on every registered game, and
// checks that every layer outside the engine that must know a game knows exactly the
// registered games, and that the optional typed layers (a kit's own per-game API, the viewer's
// picture) name only registered games: a game without them is played by every kit's generic
// path. A game added to the registry (or to one layer only) fails here, each missing layer
// named, until every required layer has it; docs/adding-a-game.md lists the steps.
func TestEveryGame(t *testing.T) {
	t.Parallel()
	names := game.Names()
	if len(names) == 0 {
		t.Fatal("no game is registered: arena/games/all imports none")
	}
	t.Run("Layers", func(t *testing.T) {
		t.Parallel()
		var problems []string
		for _, l := range layers(t) {
			for _, g := range names {
				if !l.optional && !slices.Contains(l.games, g) {
					problems = append(problems, fmt.Sprintf("game %q is registered but %s has no entry for it (%s)", g, l.name, l.fix))
				}
			}
			for _, g := range l.games {
				if !slices.Contains(names, g) {
					problems = append(problems, fmt.Sprintf("%s has an entry %q, which is no registered game (%s)", l.name, g, l.fix))
				}
			}
		}
		if len(problems) > 0 {
			t.Fatalf("registered games: %s\n%s\n(see docs/adding-a-game.md)", strings.Join(names, ", "), strings.Join(problems, "\n"))
		}
	})
	t.Run("HouseReferences", func(t *testing.T) {
		t.Parallel()
		checkHouseReferences(t)
	})
	for _, name := range names {
		spec, err := game.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if spec.Legal == nil || spec.New == nil || spec.MinPlayers < 1 || spec.Summary == "" {
				t.Fatalf("%s: its Spec needs New, Legal, Summary and MinPlayers >= 1 (see docs/adding-a-game.md)", name)
			}
			for k := range spec.Ladder {
				if !slices.ContainsFunc(spec.Params, func(p game.Param) bool { return p.Name == k }) {
					t.Errorf("%s: Spec.Ladder sets %q, which is none of its Params", name, k)
				}
			}
			// Its ladder format: a table the game accepts, with the ladder's parameters.
			if n := spec.LadderSeats(); n < spec.MinPlayers || (spec.LadderTable > 0 && n != spec.LadderTable) {
				t.Errorf("%s: Spec.LadderTable %d seats %d at a ladder match, outside its %d..%d players", name, spec.LadderTable, n, spec.MinPlayers, spec.MaxPlayers)
			} else {
				cfg := game.Config{Seed: 1, Params: spec.Ladder}
				for i := range n {
					cfg.Players = append(cfg.Players, game.Player{Name: fmt.Sprint("p", i)})
				}
				if _, err := spec.New(cfg); err != nil {
					t.Errorf("%s: a ladder table of %d with Spec.Ladder's parameters: %v", name, n, err)
				}
			}
			t.Run("House", func(t *testing.T) { checkHouse(t, spec) })
			t.Run("Plans", func(t *testing.T) { checkPlans(t, spec) })
			t.Run("Contract", func(t *testing.T) { gametest.Run(t, gametest.For(spec)) })
			t.Run("Payload", func(t *testing.T) {
				t.Parallel()
				gametest.Payload(t, gametest.For(spec))
			})
		})
	}
}

// checkHouse: the game's house bots (Spec.House) are exactly its folders bots/<game>/cmd/<name>
// (what house:<game>/<name> and `arena version` offer) and the bots bots/house plays
// in-process; one of them is the ladder's, and one is a strong baseline.
func checkHouse(t *testing.T, spec game.Spec) {
	var names []string
	strong := false
	for _, h := range spec.House {
		names = append(names, h.Name)
		strong = strong || h.Strength == game.Strong
	}
	slices.Sort(names)
	if _, err := spec.LadderHouse(); err != nil {
		t.Error(err)
	}
	if !strong {
		t.Errorf("%s: none of its house bots (Spec.House: %v) is Strength: game.Strong: add the game's baseline, the bot a good submission must beat", spec.Name, names)
	}
	var folders []string
	for _, d := range dirs(t, filepath.Join(root, "bots", spec.Name, "cmd")) {
		if gofiles, _ := filepath.Glob(filepath.Join(root, "bots", spec.Name, "cmd", d, "*.go")); len(gofiles) > 0 {
			folders = append(folders, d)
		}
	}
	if !slices.Equal(folders, names) {
		t.Errorf("%s: Spec.House lists %v but bots/%s/cmd holds the house bots %v: list each folder in Spec.House (its strength), or add the folder bots/%s/cmd/<name> with its main.go",
			spec.Name, names, spec.Name, folders, spec.Name)
	}
	if got := house.InProcess(spec.Name); !slices.Equal(got, names) {
		t.Errorf("%s: Spec.House lists %v but bots/house plays %v in-process: give each its constructor in inProcess in bots/house/house.go", spec.Name, names, got)
	}
}

// houseRef is how the repository names a house bot: its folder, or its spec from any folder.
var houseRef = regexp.MustCompile(`\b(?:bots/(\w+)/cmd/|house:(\w+)/)(\w+)`)

// checkHouseReferences: every mention of a registered game's house bot in the repository's
// code and documents (the SDKs' messages for a bot run by hand, the READMEs, scripts, tests)
// names one its Spec.House lists, so a renamed or removed house bot cannot leave a stale
// pointer behind.
func checkHouseReferences(t *testing.T) {
	text := map[string]bool{".go": true, ".py": true, ".md": true, ".txt": true, ".sh": true, ".js": true, ".ts": true,
		".rs": true, ".java": true, ".cpp": true, ".hpp": true, ".html": true, ".json": true, ".toml": true, ".yml": true}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch n := d.Name(); {
			case path != root && strings.HasPrefix(n, "."), n == "node_modules", n == "target", n == "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !text[filepath.Ext(path)] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range houseRef.FindAllSubmatchIndex(b, -1) {
			var g string
			if m[2] >= 0 {
				g = string(b[m[2]:m[3]])
			} else {
				g = string(b[m[4]:m[5]])
			}
			spec, err := game.Lookup(g)
			if err != nil {
				continue // bots/hostile, bots/bench: not a game's house bots
			}
			name := string(b[m[6]:m[7]])
			if _, err := spec.HouseNamed(name); err != nil && name != "NAME" {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s:%d names %s: %v (fix the reference, or list the bot in the game's Spec.House)",
					rel, 1+bytes.Count(b[:m[0]], []byte{'\n'}), b[m[0]:m[1]], err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkPlans: the kit tests' match and the short match name the game's house bots and
// parameters, and the short match plays to its end, move by move as the game's
// testdata/short.golden recorded it (-update rewrites it): every game has a golden playthrough
// without a test file of its own.
func checkPlans(t *testing.T, spec game.Spec) {
	if _, err := spec.HouseNamed(spec.Kit.Opponent); err != nil {
		t.Errorf("Spec.Kit.Opponent: %v: name the house bot every kit's example plays", err)
	}
	for what, params := range map[string]map[string]string{"Spec.Kit.Params": spec.Kit.Params, "Spec.Short.Params": spec.Short.Params} {
		for k := range params {
			if !slices.ContainsFunc(spec.Params, func(p game.Param) bool { return p.Name == k }) {
				t.Errorf("%s: %s sets %q, which is none of its Params", spec.Name, what, k)
			}
		}
	}
	ps, err := gametest.ShortPlayers(spec, house.Seeded)
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.Config{Seed: spec.Short.Seed, Params: spec.Short.Params}
	for _, p := range ps {
		cfg.Players = append(cfg.Players, game.Player{Name: p.Label()})
	}
	res, err := match.Run(context.Background(), spec, cfg, ps, match.Options{MatchID: "short"})
	if err != nil {
		t.Fatalf("%s: its short match (Spec.Short): %v", spec.Name, err)
	}
	if res.Steps == 0 {
		t.Errorf("%s: its short match (Spec.Short) played no step", spec.Name)
	}
	fresh, err := gametest.ShortPlayers(spec, house.Seeded)
	if err != nil {
		t.Fatal(err)
	}
	text, err := gametest.PlaythroughText(spec, gametest.Playthrough{Name: "short", Seed: spec.Short.Seed, Params: spec.Short.Params, Players: fresh})
	if err != nil {
		t.Fatalf("%s: its short match (Spec.Short) as a playthrough: %v", spec.Name, err)
	}
	if err := gametest.CheckGolden(filepath.Join(root, "arena", "games", spec.Name, "testdata", "short.golden"), text, gametest.Updating()); err != nil {
		t.Errorf("%s: %v", spec.Name, err)
	}
}

// FuzzGames feeds arbitrary answers to every registered game (the seed picks the game).
func FuzzGames(f *testing.F) {
	names := game.Names()
	gametest.FuzzMany(f, func(seed uint64) gametest.Harness {
		spec, _ := game.Lookup(names[seed%uint64(len(names))])
		return gametest.For(spec)
	})
}

// layer is one place outside the engine that lists the games. An optional one (a typed layer
// over the generic path) need not have every game, but every entry in it must be a game.
type layer struct {
	name     string
	fix      string
	games    []string
	optional bool
}

func layers(t *testing.T) []layer {
	t.Helper()
	var out []layer
	for _, m := range []struct {
		msg   proto.Message
		oneof protoreflect.Name
		what  string
	}{
		{&arenav1.StartRequest{}, "setup", "Setup"},
		{&arenav1.ActRequest{}, "observation", "Observation"},
		{&arenav1.ActResponse{}, "action", "Action"},
		{&arenav1.EndRequest{}, "observation", "Observation"},
	} {
		md := m.msg.ProtoReflect().Descriptor()
		od := md.Oneofs().ByName(m.oneof)
		if od == nil {
			t.Fatalf("%s has no oneof %s", md.FullName(), m.oneof)
		}
		var cases []string
		for i := range od.Fields().Len() {
			cases = append(cases, string(od.Fields().Get(i).Name()))
		}
		out = append(out, layer{name: fmt.Sprintf("the proto oneof %s.%s", md.Name(), m.oneof), games: cases,
			fix: fmt.Sprintf("add `<Game>%s <game> = N;` to it in proto/arena/v1/bot.proto, then run scripts/generate.sh", m.what)})
	}
	// The Go SDK: a package sdk/<game> per game (beside the core's own folders and sdk/anygame,
	// the generic path that plays any game).
	var pkgs []string
	sdkDir := filepath.Join("..", "..", "..", "sdk")
	ents, err := os.ReadDir(sdkDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.IsDir() || e.Name() == "handshake" || e.Name() == "internal" || e.Name() == "python" || e.Name() == "anygame" {
			continue
		}
		if gofiles, _ := filepath.Glob(filepath.Join(sdkDir, e.Name(), "*.go")); len(gofiles) > 0 {
			pkgs = append(pkgs, e.Name())
		}
	}
	out = append(out, layer{name: "the Go SDK (a package sdk/<game>)", games: pkgs, optional: true,
		fix: "remove the package sdk/<game>, or register the game"})

	// The ladder's house bot: the web site lists every registered game and the ladder seeds
	// each one's house bot, so a game without one fails here, not silently on the site.
	out = append(out, layer{name: "bots/house.Bots (the ladder's house bot)", games: slices.Sorted(maps.Keys(house.Bots)),
		fix: "mark one of the game's Spec.House Ladder: true, and give it its constructor in inProcess in bots/house/house.go"})
	// A kit's example bot per game, which TestEveryKitPlaysEveryGame (arena/e2e) plays; a game
	// without one is played by the kit's generic path.
	for _, lang := range []string{"go", "python", "javascript", "typescript", "rust", "java", "cpp"} {
		out = append(out, layer{name: fmt.Sprintf("the %s kit's examples (examples/%s/<game>)", lang, lang), optional: true,
			games: dirs(t, filepath.Join(root, "examples", lang)),
			fix:   fmt.Sprintf("remove examples/%s/<game>, or register the game", lang)})
	}
	out = append(out,
		layer{name: "the TypeScript kit's seats (a case in sdk/typescript/src/games.ts)", optional: true,
			games: matches(t, filepath.Join(root, "sdk/typescript/src/games.ts"), `(?m)^\s*case "(\w+)":`),
			fix:   "remove the seat from sdk/typescript/src/games.ts and types.ts, or register the game"},
		layer{name: "the golden tests (arena/games/<game>/golden_test.go)", optional: true,
			games: withFile(t, filepath.Join(root, "arena", "games"), "golden_test.go"),
			fix:   "a golden test lives in its game's folder: register the game"},
		layer{name: "the replay viewer's pictures (games.<game> in arena/viewer/assets/viewer.js)", optional: true,
			games: matches(t, filepath.Join(root, "arena/viewer/assets/viewer.js"), `(?m)^\s*games\.(\w+) = \{`),
			fix:   "remove games.<game> from arena/viewer/assets/viewer.js, or register the game"})

	py, err := pythonTables()
	if err != nil {
		t.Fatalf("reading the Python SDK's game tables: %v", err)
	}
	out = append(out,
		layer{name: "the Python SDK's games.SIGNATURES", games: py.Signatures, optional: true,
			fix: "remove the entry from SIGNATURES in sdk/python/src/arena_sdk/games.py, or register the game"},
		layer{name: "the Python SDK's _handshake.HOUSE_BOTS", games: py.HouseBots, optional: true,
			fix: "remove the entry from HOUSE_BOTS in sdk/python/src/arena_sdk/_handshake.py, or register the game"},
		layer{name: "the Python SDK's game modules (arena_sdk/<game>.py)", games: py.Modules, optional: true,
			fix: "remove sdk/python/src/arena_sdk/<game>.py, or register the game"})
	return out
}

// root is the repository's root, from this package's folder.
var root = filepath.Join("..", "..", "..")

// dirs lists the folders in dir.
func dirs(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// withFile lists the folders in dir that hold a file named name.
func withFile(t *testing.T, dir, name string) []string {
	t.Helper()
	var out []string
	for _, d := range dirs(t, dir) {
		if _, err := os.Stat(filepath.Join(dir, d, name)); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// matches lists the first group of every match of pattern in file, each once.
func matches(t *testing.T, file, pattern string) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile(pattern).FindAllStringSubmatch(string(b), -1) {
		if !slices.Contains(out, m[1]) {
			out = append(out, m[1])
		}
	}
	return out
}

type pyTables struct {
	Signatures []string `json:"signatures"`
	HouseBots  []string `json:"house_bots"`
	Modules    []string `json:"modules"`
}

// pythonReader reads the tables from the SDK's source without importing it (no grpc needed):
// the keys of two dict literals, and which game modules exist among the names of both.
const pythonReader = `
import ast, json, os, sys
src = sys.argv[1]
def keys(file, name):
    tree = ast.parse(open(os.path.join(src, file), encoding="utf-8").read())
    for node in ast.walk(tree):
        target = getattr(node, "target", None) or (node.targets[0] if isinstance(node, ast.Assign) else None)
        if isinstance(target, ast.Name) and target.id == name and isinstance(node.value, ast.Dict):
            return [k.value for k in node.value.keys]
    sys.exit(f"{file} has no dict literal {name}")
sig = keys("games.py", "SIGNATURES")
house = keys("_handshake.py", "HOUSE_BOTS")
mods = sorted(g for g in set(sig) | set(house) | set(sys.argv[2:]) if os.path.isfile(os.path.join(src, g + ".py")))
print(json.dumps({"signatures": sig, "house_bots": house, "modules": mods}))
`

func pythonTables() (pyTables, error) {
	src, err := filepath.Abs(filepath.Join("..", "..", "..", "sdk", "python", "src", "arena_sdk"))
	if err != nil {
		return pyTables{}, err
	}
	python := os.Getenv("ARENA_PYTHON")
	if python == "" || strings.HasSuffix(python, string(filepath.Separator)) {
		python = "python3"
	} else if fi, err := os.Stat(python); err == nil && fi.IsDir() {
		python = filepath.Join(python, "bin", "python")
	}
	args := append([]string{"-I", "-c", pythonReader, src}, game.Names()...)
	out, err := exec.Command(python, args...).Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = strings.TrimSpace(string(ee.Stderr))
		}
		return pyTables{}, fmt.Errorf("%s: %v %s", python, err, stderr)
	}
	var tb pyTables
	return tb, json.Unmarshal(out, &tb)
}
