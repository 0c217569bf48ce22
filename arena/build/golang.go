package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/kit"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// Module is the arena's own Go module, which Go bots build against.
const Module = "github.com/botarena/arena"

// recipeGo versions the Go recipe: a change to the script below changes every artefact key.
const recipeGo = "go-4"

// goScript builds the package in /src into /build/out/bot, inside the sandbox. A submission
// without a go.mod of its own becomes module arenabot; either way the arena's module resolves
// to the kit, and nothing is fetched (GOPROXY=off) unless the organiser allows the network.
// -ldflags='-s -w': no DWARF and no ELF symbol table, which no sandboxed bot is debugged with
// (a panic's traceback reads the runtime's own table, kept): a dynamite bot is 13 MB instead
// of 19 in the files store, a RAM tmpfs, and its link takes about a third less CPU.
const goScript = `set -e
cp -R /run/src /run/build/src
chmod -R u+w /run/build/src
cd /run/build/src
if [ ! -f go.mod ]; then
  printf 'module arenabot\n\ngo %s\n\nrequire ` + Module + ` v0.0.0\n' "$ARENA_GO_LANG" > go.mod
  cp /run/kit/go.sum go.sum
fi
go mod edit -replace ` + Module + `=/run/kit
name=$(go list -f '{{.Name}}' "./$ARENA_GO_PKG")
if [ "$name" != main ]; then
  echo "the Go package in this folder is package $name, not package main: give the directory of the bot's command (for example bots/dynamite/cmd/paper)" >&2
  exit 2
fi
exec go build -trimpath -ldflags="-s -w" -o /run/build/out/bot "./$ARENA_GO_PKG"
`

// Toolchain is the host's Go installation: its root, module cache and version, asked once
// from an empty directory (no submission is involved).
type Toolchain struct {
	Root, ModCache, Version string
}

var (
	goOnce sync.Once
	goTC   Toolchain
	goErr  error
)

// HostGo finds the Go toolchain on PATH.
func HostGo() (Toolchain, error) {
	goOnce.Do(func() {
		cmd := exec.Command("go", "env", "-json", "GOROOT", "GOMODCACHE", "GOVERSION")
		cmd.Dir = os.TempDir()
		out, err := cmd.Output()
		if err != nil {
			goErr = fmt.Errorf("no Go toolchain to build Go bots (%v): install Go and put it on PATH", err)
			return
		}
		var env map[string]string
		if err := json.Unmarshal(out, &env); err != nil {
			goErr = fmt.Errorf("go env: %w", err)
			return
		}
		goTC = Toolchain{Root: env["GOROOT"], ModCache: env["GOMODCACHE"], Version: env["GOVERSION"]}
	})
	return goTC, goErr
}

// lang is the go directive for a synthesized go.mod ("1.26" from "go1.26.8").
func (t Toolchain) lang() string {
	v := strings.TrimPrefix(t.Version, "go")
	if parts := strings.SplitN(v, ".", 3); len(parts) >= 2 {
		return parts[0] + "." + parts[1]
	}
	return v
}

// Kit is an unpacked kit of the binary: its folder in the files store and its content hash.
type Kit struct {
	Name, Dir, Hash string
}

// GoKit unpacks the Go kit the binary carries (go.mod, go.sum and the Go files of sdk/, proto/
// and bots/): what every Go bot builds against. Nothing of the kind is looked for on disk.
func GoKit() (Kit, error) { return unpackKit(kit.Go) }

// unpackKit unpacks a kit of the binary into the files store.
func unpackKit(name string) (Kit, error) {
	dir, k, err := kit.Dir(name)
	if err != nil {
		return Kit{}, err
	}
	return Kit{Name: name, Dir: dir, Hash: k.Hash}, nil
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// goEnv is the environment of every Go build step.
func goEnv(tc Toolchain, cgo bool, network bool) []string {
	c := "0"
	if cgo {
		c = "1"
	}
	proxy := "off"
	if network {
		proxy = "https://proxy.golang.org,direct"
	}
	return []string{
		"PATH=" + filepath.Join(tc.Root, "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"GOROOT=" + tc.Root, "GOMODCACHE=" + tc.ModCache, "GOCACHE=" + buildAt + "/gocache",
		"GOPATH=" + buildAt + "/gopath", "GOFLAGS=-mod=mod", "GOPROXY=" + proxy, "GOSUMDB=off",
		"GOTOOLCHAIN=local", "GOTELEMETRY=off", "GOENV=off", "GOWORK=off", "CGO_ENABLED=" + c,
		"ARENA_GO_LANG=" + tc.lang(),
	}
}

// goView is what a Go build reads at its own paths: the toolchain, the module cache, and the
// system's shell, coreutils and C toolchain (for cgo, when it is on).
func goView(tc Toolchain) []string {
	return []string{tc.Root, tc.ModCache, "/usr", "/bin", "/lib", "/lib64", "/etc/alternatives"}
}

// warmCache returns a compiler cache holding every package of the kit and its dependencies,
// built once per toolchain and kit from the arena's own code (no submission), in a sandbox
// like any build. Builds see it through a private overlay; where overlays are impossible
// (not root) they write into it directly, which the degraded sandbox reports.
func warmCache(o Options, tc Toolchain, kit Kit, store string) (dir string, fresh bool, err error) {
	// One warm cache, without cgo: a build with --cgo reuses what it can and compiles the rest
	// in its own overlay.
	dir = filepath.Join(o.Cache, "gocache-"+key(tc.Version, kit.Hash))
	ready := filepath.Join(dir, "ready")
	// Leased like a files store entry before it is looked at: pruneCaches leaves it alone.
	fs, err := filestore.Open(store)
	if err != nil {
		return "", false, err
	}
	if err := fs.UseOutside(dir); err != nil {
		return "", false, err
	}
	if exists(ready) {
		now := time.Now()
		_ = os.Chtimes(ready, now, now)
		return dir, false, nil
	}
	unlock, err := lock(dir + ".lock")
	if err != nil {
		return "", false, err
	}
	defer unlock()
	if exists(filepath.Join(dir, "ready")) {
		return dir, false, nil
	}
	_ = os.RemoveAll(dir)
	if o.Log != nil {
		fmt.Fprintf(o.Log, "arena: warming the Go compiler cache for its kit in %s (once per Go version and kit; minutes on a cold machine)\n", dir)
	}
	wo := o
	wo.Limits.MemoryBytes = max(wo.Limits.MemoryBytes, 4<<30)
	wo.Limits.DiskBytes = max(wo.Limits.DiskBytes, 4<<30)
	// The arena's own code, so its CPU limit is what bounds it: the build's 10 minutes of wall
	// time ran out on a machine at load 37 (about 60 CPU-seconds of compiling, stretched by
	// the wait for a CPU), and then every Go bot of that machine failed to build.
	wo.Limits.WallTime = max(wo.Limits.WallTime, time.Hour)
	wo.OutputQuota = -1 // the arena's own code, outside the files store
	s := step{
		name: "warm the Go cache", bot: "the arena's Go source", path: "/bin/sh",
		// A seed's marker is not this cache's: it is written below, once the cache is whole.
		args: []string{"-c", `rm -f "$GOCACHE/ready" && cd /run/kit && go build -mod=readonly -trimpath ./...`},
		env:  goEnv(tc, false, false), view: goView(tc),
		mounts: []sandbox.Mount{{Host: kit.Dir, At: "/run/kit"}},
		out:    "gocache",
	}
	sealed := sandbox.OverlaysWork()
	if sealed {
		if seed, release := seedCache(o.Cache, tc, dir); seed != "" {
			defer release()
			s.overlay = []sandbox.Overlay{{Lower: seed, At: "gocache"}}
			if o.Log != nil {
				fmt.Fprintf(o.Log, "arena: starting from the cache of another kit for %s (%s): only what changed is compiled\n", tc.Version, seed)
			}
		}
	}
	if err := s.run(wo, dir); err != nil {
		return "", false, err
	}
	// Builds add entries through an overlay as their own uid: the folders must let them.
	if err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.IsDir() {
			return os.Chmod(p, 0o777)
		}
		return os.Chmod(p, 0o666)
	}); err != nil {
		return "", false, err
	}
	// The marker names the toolchain of a sealed cache: one that builds saw only through their
	// overlays, so it holds what warm-ups of the arena's own code compiled and nothing else,
	// and a later kit's warm-up may start from it (seedCache).
	mark := ""
	if sealed {
		mark = tc.Version
	}
	if err := os.WriteFile(filepath.Join(dir, "ready"), []byte(mark), 0o644); err != nil {
		return "", false, err
	}
	pruneCaches(store, o.Cache, filepath.Base(dir))
	return dir, true, nil
}

// seedCache finds the newest sealed warm cache of the same toolchain in dir other than
// except, and locks it so that pruneCaches leaves it while it is read. A new kit (a new arena
// version, or a game added) differs from the last in the arena's own packages only: through an
// overlay over the seed, its warm-up compiles those and finds the standard library and every
// module already compiled, seconds instead of minutes. Go's cache is keyed by the content of
// every input, so an entry the new kit does not use is never read. Empty when there is none.
func seedCache(dir string, tc Toolchain, except string) (seed string, release func()) {
	if tc.Version == "" {
		return "", nil
	}
	found, _ := filepath.Glob(filepath.Join(dir, "gocache-*"))
	var newest time.Time
	for _, p := range found {
		if p == except || strings.HasSuffix(p, ".lock") {
			continue
		}
		ready := filepath.Join(p, "ready")
		st, err := os.Stat(ready)
		if err != nil || (seed != "" && !st.ModTime().After(newest)) {
			continue
		}
		if b, err := os.ReadFile(ready); err != nil || string(b) != tc.Version {
			continue
		}
		seed, newest = p, st.ModTime()
	}
	if seed == "" {
		return "", nil
	}
	unlock, err := tryLock(seed + ".lock")
	if err != nil {
		return "", nil
	}
	if _, err := os.Stat(filepath.Join(seed, "ready")); err != nil { // pruned before the lock
		unlock()
		return "", nil
	}
	return seed, unlock
}

func goPrefix(kit Kit) string { return "go-" + kit.Hash[:12] + "-" }

// cacheAge is how long a warmed cache nobody leases is kept: another user's arena (with a
// files store of its own, so its leases are not seen here) may still be using it.
const cacheAge = time.Hour

// pruneCaches removes the warmed caches (of other kits and toolchains) that no live arena
// process of this files store leases and nobody used for cacheAge. Go artefacts of other kits
// are entries of the files store: its collector removes them when nothing leases them.
func pruneCaches(store, dir, keep string) {
	fs, err := filestore.Open(store)
	if err != nil {
		return
	}
	_ = fs.Exclusive(func(leased func(string) bool) error {
		old, _ := filepath.Glob(filepath.Join(dir, "gocache-*"))
		sort.Strings(old)
		for _, p := range old {
			b := filepath.Base(p)
			if b == keep || strings.HasSuffix(b, ".lock") || leased(p) {
				continue
			}
			if st, err := os.Stat(filepath.Join(p, "ready")); err == nil && time.Since(st.ModTime()) < cacheAge {
				continue
			}
			if unlock, err := tryLock(p + ".lock"); err == nil {
				_ = os.RemoveAll(p)
				unlock()
			}
		}
		return nil
	})
}

// GoBot is a Go submission to build.
type GoBot struct {
	Name string
	Snap submission.Snapshot
	// Pkg is the package to build, relative to the snapshot: "." or a folder below.
	Pkg string
}

// WarmGo warms the compiler cache Go builds use (once per toolchain and kit; minutes on a
// cold machine), so that a build's own time can be measured apart from it.
func WarmGo(o Options) error {
	o = o.WithDefaults()
	tc, kit, err := goReady(o)
	if err != nil {
		return err
	}
	store, err := sandbox.FilesDir()
	if err != nil {
		return err
	}
	_, _, err = warmCache(o, tc, kit, store)
	return err
}

// goReady finds the host's Go, unpacks the Go kit and makes sure the module cache holds what
// the kit needs (see Modules).
func goReady(o Options) (Toolchain, Kit, error) {
	tc, err := HostGo()
	if err != nil {
		return tc, Kit{}, err
	}
	k, err := GoKit()
	if err != nil {
		return tc, k, err
	}
	return tc, k, Modules(tc, k, o)
}

var (
	modMu   sync.Mutex
	modDone = map[string]bool{}
)

// Modules makes sure the host's module cache holds every module the Go kit's packages need,
// before any sandboxed Go build, which runs with GOPROXY=off against that cache: on a fresh
// machine the cache is empty. It runs the go command on the host, in the unpacked kit (the
// binary's own bytes, no submission), with the user's GOPROXY and GOMODCACHE, and -mod=readonly,
// so only what the kit's go.mod names is fetched and go.sum checks every byte. Once per kit and
// module cache: a marker in the module cache says it is done (and goes with the cache when it
// is cleaned). Of o it takes Log (told of the fetch) and Stop (which kills the go command).
func Modules(tc Toolchain, k Kit, o Options) error {
	log := o.Log
	modMu.Lock()
	defer modMu.Unlock()
	marker := filepath.Join(tc.ModCache, "cache", "arena", "kit-"+k.Hash[:24])
	if modDone[marker] || exists(marker) {
		modDone[marker] = true
		return nil
	}
	if log != nil {
		fmt.Fprintf(log, "arena: fetching the Go modules of its kit into %s (once per kit; go list with your GOPROXY)\n", tc.ModCache)
	}
	// The packages of the kit and what they import (the warm-up builds them all), then the
	// go.mod files of the whole module graph (a bot's own go.mod resolves against it).
	for _, args := range [][]string{{"list", "-deps", "-e=false", "./..."}, {"list", "-m", "all"}} {
		if err := o.stopped(); err != nil {
			return err
		}
		cmd := exec.Command(filepath.Join(tc.Root, "bin", "go"), args...)
		cmd.Dir = k.Dir
		// Its own process group, so that a stop (Options.Stop) ends the go command's
		// children (git, a module download) with it.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.Env = append(hostGoEnv(), "GOFLAGS=-mod=readonly", "GOWORK=off", "GOTOOLCHAIN=local", "GOMODCACHE="+tc.ModCache)
		cmd.Stdout = io.Discard
		var stderr tail
		stderr.max = 8 << 10
		cmd.Stderr = &stderr
		if err := runStoppable(cmd, o.Stop); err != nil {
			if serr := o.stopped(); serr != nil {
				return serr
			}
			return fmt.Errorf("%w: go %s in the arena's Go kit (%s): %v\n  %s\n  Go bots build offline against the module cache (%s), which needs the modules of the arena's kit once: "+
				"connect this machine to the network (or set GOPROXY to a proxy it reaches) and run again, or fill the cache from a checkout of the arena with `go mod download`",
				ErrModules, strings.Join(args, " "), k.Dir, err, strings.Join(stderr.lines(8), "\n  "), tc.ModCache)
		}
	}
	if err := os.MkdirAll(filepath.Dir(marker), 0o755); err == nil {
		_ = os.WriteFile(marker, []byte(k.Hash+"\n"), 0o644)
	}
	modDone[marker] = true
	return nil
}

// runStoppable runs cmd (in a process group of its own) to its end, or kills its group once
// stop is done.
func runStoppable(cmd *exec.Cmd, stop context.Context) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	if stop != nil {
		pid := cmd.Process.Pid
		defer context.AfterFunc(stop, func() { _ = syscall.Kill(-pid, syscall.SIGKILL) })()
	}
	return cmd.Wait()
}

// ErrModules means the Go modules of the arena's kit could not be fetched.
var ErrModules = errors.New("the Go modules of the arena's kit are not in the module cache")

// hostGoEnv is the user's environment for the go command on the host, without the settings
// Modules fixes itself.
func hostGoEnv() []string {
	var out []string
	for _, e := range os.Environ() {
		switch k, _, _ := strings.Cut(e, "="); k {
		case "GOFLAGS", "GOWORK", "GOTOOLCHAIN", "GOMODCACHE":
			continue
		}
		out = append(out, e)
	}
	return out
}

// Go builds a Go bot into store/art/<key>/bot.
func Go(o Options, b GoBot, store string) (Artefact, error) {
	o = o.WithDefaults()
	bot, snap, pkg := b.Name, b.Snap, b.Pkg
	tc, kit, err := goReady(o)
	if err != nil {
		return Artefact{}, err
	}
	if pkg == "" {
		pkg = "."
	}
	// The kit's hash leads the key, so artefacts of older kits can be found and removed.
	k := goPrefix(kit) + key(recipeGo, snap.Hash, pkg, kit.Hash, tc.Version, fmt.Sprint(o.CGO), fmt.Sprint(o.Network))
	return cached(store, k, func(dst string) error {
		cache, _, err := warmCache(o, tc, kit, store)
		if err != nil {
			return err
		}
		s := step{
			name: "go build", bot: bot, path: "/bin/sh", args: []string{"-c", goScript},
			env: append(goEnv(tc, o.CGO, o.Network), "ARENA_GO_PKG="+pkg), view: goView(tc),
			mounts: []sandbox.Mount{{Host: snap.Dir, At: "/run/src"}, {Host: kit.Dir, At: "/run/kit"}},
			out:    "out",
		}
		if sandbox.OverlaysWork() {
			s.overlay = []sandbox.Overlay{{Lower: cache, At: "gocache"}}
		} else {
			s.view = append(s.view, cache)
			for i, e := range s.env {
				if strings.HasPrefix(e, "GOCACHE=") {
					s.env[i] = "GOCACHE=" + cache
				}
			}
		}
		err = s.run(o, dst)
		var be *Error
		if errors.As(err, &be) {
			if why := notInKit(be.Tail, kit.Dir); why != "" {
				be.Reason = why
			}
		}
		return err
	})
}

// arenaImport finds, in a go build's error lines, a file's import of a package of the arena's
// own module ("main.go:4:2: ... github.com/botarena/arena/internal/slack").
var arenaImport = regexp.MustCompile(`^(\S+\.go:\d+:\d+): .*?(` + regexp.QuoteMeta(Module) + `/[^\s;:,"]+)`)

// notInKit explains a failed Go build that imports a package of the arena's module the kit
// does not carry (go's own words blame the module lookup): what a bot may import instead.
// Empty when the build failed for another reason.
func notInKit(tail []string, kitDir string) string {
	for _, l := range tail {
		m := arenaImport.FindStringSubmatch(strings.TrimSpace(l))
		if m == nil {
			continue
		}
		rel := strings.TrimPrefix(m[2], Module+"/")
		if fi, err := os.Stat(filepath.Join(kitDir, filepath.FromSlash(rel))); err == nil && fi.IsDir() {
			continue // the kit has it: something else went wrong
		}
		var held []string
		if des, err := os.ReadDir(kitDir); err == nil {
			for _, d := range des {
				if d.IsDir() {
					held = append(held, Module+"/"+d.Name()+"/...")
				}
			}
		}
		return fmt.Sprintf("%s imports %s, which a bot cannot import: the arena's Go kit, which Go bots build against, holds only %s; "+
			"a bot may import those, the standard library and the modules its own go.mod names. Copy what it needs from the arena into the bot's folder",
			m[1], m[2], strings.Join(held, ", "))
	}
	return ""
}

// hashFiles names a folder's content by its files' names, sizes and modification times (a
// wheel folder, which is the organiser's, not a submission).
func hashFiles(dir string) string {
	h := sha256.New()
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(h, "%q %d %d\n", rel, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return hex.EncodeToString(h.Sum(nil))
}
