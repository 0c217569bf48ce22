package build

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// recipeLang versions the language recipes below: a change to a script changes every key.
const recipeLang = "lang-1"

// SDKDir is where a bot of a stdio language sees its language's kit library, in the build
// and when it runs.
const SDKDir = "/sdk"

// Toolchain of a language on the host, found once from the host's own PATH (no submission
// is involved): what a build step or a bot of that language sees.
type Tool struct {
	Kind submission.Kind
	// Exe is the runtime a bot of the language starts (node, java), or "" for a compiled
	// program.
	Exe string
	// Run is what the bot's sandbox shows read-only at their own paths (the runtime).
	Run []string
	// View is what a build sees read-only at their own paths (compilers, package managers).
	View []string
	// Env is the environment of the build steps.
	Env []string
	// Version names the toolchain in artefact keys.
	Version string
}

// systemView is the system part of every build's view: shell, coreutils, the C toolchain.
var systemView = []string{"/usr", "/bin", "/lib", "/lib64", "/etc/alternatives"}

// networkView is what a build with network needs to resolve names and check certificates.
var networkView = []string{"/etc/ssl", "/etc/resolv.conf", "/etc/pki", "/usr/share/ca-certificates", "/etc/ca-certificates"}

var (
	toolMu    sync.Mutex
	toolCache = map[submission.Kind]Tool{}
)

// ToolFor finds the toolchain of a stdio language on the host; an *Unavailable says why
// there is none, and the fix.
func ToolFor(k submission.Kind) (Tool, error) {
	toolMu.Lock()
	defer toolMu.Unlock()
	if t, ok := toolCache[k]; ok {
		return t, nil
	}
	t, err := findTool(k)
	if err != nil {
		// Not the bot's fault where another machine has the toolchain (see Unavailable).
		return t, Cannot("build "+LanguageName(k)+" bots", err)
	}
	toolCache[k] = t
	return t, nil
}

func findTool(k submission.Kind) (Tool, error) {
	t := Tool{Kind: k, View: append([]string{}, systemView...)}
	path := "PATH=/usr/local/bin:/usr/bin:/bin"
	switch k {
	case submission.JavaScript, submission.TypeScript:
		node, err := realTool("node", "JavaScript and TypeScript bots run on Node.js: install nodejs (20 or newer)")
		if err != nil {
			return t, err
		}
		t.Exe, t.Run = node, []string{node}
		t.View = append(t.View, prefixOf(node))
		if npm, err := exec.LookPath("npm"); err == nil {
			if real, err := filepath.EvalSymlinks(npm); err == nil {
				t.View = append(t.View, filepath.Dir(filepath.Dir(real)))
			}
			path = "PATH=" + filepath.Dir(npm) + ":" + filepath.Dir(node) + ":/usr/local/bin:/usr/bin:/bin"
		}
		t.Version = versionOf(node, "--version")
		t.Env = []string{"npm_config_update_notifier=false", "npm_config_cache=" + buildAt + "/tmp/npm", "npm_config_fund=false", "npm_config_audit=false"}
	case submission.Java:
		java, err := realTool("java", "Java bots run on a JDK 17 or newer: install openjdk-17-jdk")
		if err != nil {
			return t, err
		}
		home := filepath.Dir(filepath.Dir(java))
		if _, err := os.Stat(filepath.Join(home, "bin", "javac")); err != nil {
			return t, fmt.Errorf("no javac beside %s: Java bots are compiled with a JDK (install openjdk-17-jdk, not only the JRE)", java)
		}
		// Debian's JDK links its configuration in from /etc/java-17-openjdk.
		t.Exe, t.Run = java, append([]string{home}, linkedFrom(home)...)
		t.View = append(t.View, t.Run...)
		if mvn, err := exec.LookPath("mvn"); err == nil {
			if real, err := filepath.EvalSymlinks(mvn); err == nil {
				mvnHome := filepath.Dir(filepath.Dir(real))
				// Debian's Maven links its configuration in from /etc/maven.
				t.View = append(append(t.View, mvnHome), linkedFrom(mvnHome)...)
			}
		}
		path = "PATH=" + filepath.Join(home, "bin") + ":/usr/local/bin:/usr/bin:/bin"
		t.Version = versionOf(filepath.Join(home, "bin", "javac"), "-version")
		t.Env = []string{"JAVA_HOME=" + home}
	case submission.Rust:
		rustc, err := exec.LookPath("rustc")
		if err != nil {
			return t, fmt.Errorf("no rustc on PATH: Rust bots are built with cargo (install Rust with rustup): %w", err)
		}
		out, err := exec.Command(rustc, "--print", "sysroot").Output()
		if err != nil {
			return t, fmt.Errorf("ask %s for its sysroot: %w", rustc, err)
		}
		sysroot := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(sysroot, "bin", "cargo")); err != nil {
			return t, fmt.Errorf("no cargo in the Rust toolchain %s: install it with rustup", sysroot)
		}
		// The toolchain itself, not rustup's proxies: they would want to write rustup's state.
		t.View = append(t.View, sysroot)
		path = "PATH=" + filepath.Join(sysroot, "bin") + ":/usr/local/bin:/usr/bin:/bin"
		t.Version = versionOf(filepath.Join(sysroot, "bin", "rustc"), "--version")
		t.Env = []string{"CARGO_HOME=" + buildAt + "/tmp/cargo", "CARGO_TERM_COLOR=never", "CARGO_INCREMENTAL=0"}
	case submission.Cpp:
		gxx, err := realTool("g++", "C++ bots are built with g++: install g++ (and cmake for CMakeLists.txt)")
		if err != nil {
			return t, err
		}
		t.Version = versionOf(gxx, "--version")
		t.Env = []string{"CPLUS_INCLUDE_PATH=" + SDKDir, "C_INCLUDE_PATH=" + SDKDir}
	default:
		return t, fmt.Errorf("no toolchain for %s bots", k)
	}
	t.Env = append(t.Env, path)
	return t, nil
}

// linkedFrom lists the folders outside root that links inside it point into.
func linkedFrom(root string) []string {
	var out []string
	seen := map[string]bool{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.Type()&os.ModeSymlink == 0 {
			return nil
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil || strings.HasPrefix(target, root+"/") {
			return nil
		}
		if st, err := os.Stat(target); err == nil && !st.IsDir() {
			target = filepath.Dir(target)
		}
		if !seen[target] {
			seen[target] = true
			out = append(out, target)
		}
		return nil
	})
	return out
}

// realTool finds a program on PATH and follows its links.
func realTool(name, fix string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("no %s on PATH: %s", name, fix)
	}
	return filepath.EvalSymlinks(p)
}

// prefixOf is the installation a binary belongs to: /usr/local/lib/node for
// /usr/local/lib/node/bin/node, nothing new for a system binary under /usr.
func prefixOf(bin string) string { return filepath.Dir(filepath.Dir(bin)) }

// versionOf is a toolchain's first line of version output.
func versionOf(exe string, arg string) string {
	out, _ := exec.Command(exe, arg).CombinedOutput()
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return exe + " " + line
}

// prelude copies the submission into the build's output folder: everything in it afterwards
// is what the bot sees at /bot.
const prelude = `set -e
cp -R /run/src/. /run/build/out/
chmod -R u+w /run/build/out
cd /run/build/out
`

// recipes are the language build scripts of docs/protocol.md section 12. Each leaves the
// program where Program expects it.
var recipes = map[submission.Kind]string{
	submission.JavaScript: `
if [ -f package.json ]; then
` + nodeDeps + `
  if [ -n "$build" ]; then npm run build; fi
` + nodePrune + `
fi
`,
	submission.TypeScript: typeScriptRecipe,
	submission.Rust: `
# The kit is a path dependency wherever it lies on the author's machine (examples name
# ../../../sdk/rust); here it is the arena's own, at ` + SDKDir + `. In this sandbox's copy only.
sed -i -E -e 's#^([[:space:]]*arena[[:space:]]*=[[:space:]]*\{.*path[[:space:]]*=[[:space:]]*)"[^"]*"#\1"` + SDKDir + `"#' \
  -e '/^[[:space:]]*\[dependencies\.arena\]/,/^[[:space:]]*\[/ s#^([[:space:]]*path[[:space:]]*=[[:space:]]*)"[^"]*"#\1"` + SDKDir + `"#' Cargo.toml
offline=--offline
if [ "$ARENA_NETWORK" = 1 ]; then offline=; fi
cargo build --release $offline --target-dir /run/build/tmp/target
set -- $(find /run/build/tmp/target/release -maxdepth 1 -type f -perm -u+x)
if [ $# != 1 ]; then
  echo "the build made $# programs ($*): keep one binary target, or give build and run in bot.json" >&2
  exit 2
fi
cp "$1" /run/build/out/bot
`,
	submission.Java: `
if [ -f pom.xml ]; then
  if [ "$ARENA_NETWORK" != 1 ]; then
    echo "pom.xml: Maven fetches its plugins from Maven Central, which needs the network (the organiser's --build-network); or drop pom.xml and keep plain .java files, which javac compiles offline" >&2
    exit 2
  fi
  mvn -B -q -Dmaven.repo.local=/run/build/tmp/m2 -DskipTests package dependency:copy-dependencies -DoutputDirectory=lib
  mkdir -p classes
  cp -R target/classes/. classes/
else
  find . -name '*.java' > /run/build/tmp/sources
  javac -encoding UTF-8 -d classes -sourcepath ` + SDKDir + ` @/run/build/tmp/sources
fi
`,
	submission.Cpp: `
find . -type f -perm -u+x | sort > /run/build/tmp/before
if [ -f CMakeLists.txt ]; then
  cmake -S . -B /run/build/tmp/cmake -DCMAKE_BUILD_TYPE=Release
  cmake --build /run/build/tmp/cmake -j 2
  set -- $(find /run/build/tmp/cmake -path '*/CMakeFiles' -prune -o -type f -perm -u+x -print)
elif [ -f Makefile ] || [ -f makefile ] || [ -f GNUmakefile ]; then
  make -j 2
  if [ -f bot ]; then set -- bot; else
    set -- $(find . -type f -perm -u+x | sort | comm -13 /run/build/tmp/before -)
  fi
else
  find . \( -name '*.cpp' -o -name '*.cc' \) > /run/build/tmp/sources
  g++ -O2 -std=c++20 -o /run/build/tmp/bot $(cat /run/build/tmp/sources)
  set -- /run/build/tmp/bot
fi
if [ $# != 1 ]; then
  echo "the build made $# programs ($*): build exactly one executable, or give build and run in bot.json" >&2
  exit 2
fi
if [ ! "$1" -ef /run/build/out/bot ]; then cp "$1" /run/build/out/bot; fi
`,
}

// StdioBot is a submission in a stdio language to build.
type StdioBot struct {
	Name string
	Kind submission.Kind
	Snap submission.Snapshot
	// Build is bot.json's build command; empty takes the language's recipe.
	Build string
}

// Stdio builds a JavaScript, Rust, Java or C++ bot into store/art/<key>: a copy of its folder
// with the built program in it (bot for the compiled languages, classes/ for Java).
func Stdio(o Options, b StdioBot, store string) (Artefact, error) {
	o = o.WithDefaults()
	t, err := ToolFor(b.Kind)
	if err != nil {
		return Artefact{}, err
	}
	script, ok := recipes[b.Kind]
	if b.Build != "" {
		script, ok = "\nexec /bin/sh -c \"$ARENA_BUILD\"\n", true
	}
	if !ok {
		return Artefact{}, fmt.Errorf("no build recipe for %s bots", b.Kind)
	}
	sdk, err := SDK(o, b.Kind)
	if err != nil {
		return Artefact{}, err
	}
	k := "lang-" + key(recipeLang, string(b.Kind), b.Snap.Hash, script, b.Build, sdk.Hash, t.Version, fmt.Sprint(o.Network))
	return cached(store, k, func(dst string) error {
		env := append(append([]string{}, t.Env...), "ARENA_BUILD="+b.Build)
		view := t.View
		if o.Network {
			env = append(env, "ARENA_NETWORK=1")
			view = append(append([]string{}, view...), networkView...)
		}
		mounts := []sandbox.Mount{{Host: b.Snap.Dir, At: "/run/src"}}
		if sdk.Dir != "" {
			mounts = append(mounts, sandbox.Mount{Host: sdk.Dir, At: SDKDir})
		}
		s := step{name: string(b.Kind) + " build", bot: b.Name, path: "/bin/sh", args: []string{"-c", prelude + script},
			env: env, view: existing(view), mounts: mounts, out: "out"}
		return s.run(o, dst)
	})
}

// existing keeps the paths that exist (a view of a missing folder is an error).
func existing(paths []string) []string {
	var out []string
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			out = append(out, p)
		}
	}
	return out
}

// sdkKits names each stdio language's kit library among the binary's kits (the TypeScript
// kit is built first: TypeScriptKit).
var sdkKits = map[submission.Kind]string{
	submission.JavaScript: kit.JavaScript, submission.Rust: kit.Rust,
	submission.Java: kit.Java, submission.Cpp: kit.Cpp,
}

// SDK unpacks a stdio language's kit library, which the binary carries, into the files store
// (the TypeScript kit: builds it, with o's limits and network). A language without one gives
// an empty Kit: a bot that needs none still builds.
func SDK(o Options, k submission.Kind) (Kit, error) {
	if k == submission.TypeScript {
		return TypeScriptKit(o)
	}
	name, ok := sdkKits[k]
	if !ok {
		return Kit{}, nil
	}
	return unpackKit(name)
}

// Program is the command line of a built stdio-language bot inside its sandbox (/bot is the
// artefact): bot.json's run, with a runtime named by its name, or the language's default.
func Program(t Tool, run []string, bot string) ([]string, error) {
	if len(run) == 0 {
		switch t.Kind {
		case submission.JavaScript, submission.TypeScript:
			run = []string{"node", bot}
		case submission.Java:
			run = []string{"java", "-cp", bot + "/classes:" + bot + "/lib/*", "Bot"}
		default:
			run = []string{bot + "/bot"}
		}
	}
	out := append([]string{}, run...)
	switch first := out[0]; {
	case first == "node" && (t.Kind == submission.JavaScript || t.Kind == submission.TypeScript),
		first == "java" && t.Kind == submission.Java:
		out[0] = t.Exe
		if first == "java" {
			// Small, fast-starting JVM for tiny moves: one GC thread, the quick compiler, and no
			// shared-memory performance file in the work directory.
			out = append([]string{out[0], "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto"}, out[1:]...)
		}
	case strings.HasPrefix(first, bot+"/"):
	case filepath.IsAbs(first), first == "..", strings.HasPrefix(filepath.Clean(first), "../"):
		return nil, fmt.Errorf("bot.json's run %q: the program must be inside the bot's folder, or a runtime by name (node, java)", strings.Join(run, " "))
	default:
		out[0] = filepath.Join(bot, first)
	}
	return out, nil
}

// BridgeDir is where a stdio bot's sandbox shows the bridge: a copy of the arena's own
// executable (see Bridge), run as BridgeProgram with the bridge's first argument.
const BridgeDir = "/run/arena"

// BridgeProgram is the bridge's program inside the sandbox.
const BridgeProgram = BridgeDir + "/" + kit.SelfName

// Bridge returns the folder to show at BridgeDir: the running arena executable, copied once
// per content into the files store (arena/kit.Self). The bridge is never built at run time,
// from any folder: it is the binary that runs the tournament, re-executed inside the bot's
// sandbox (as runc re-executes itself for its init).
func Bridge() (Artefact, error) {
	dir, err := kit.Self()
	if err != nil {
		return Artefact{}, err
	}
	return Artefact{Key: filepath.Base(dir), Dir: dir}, nil
}
