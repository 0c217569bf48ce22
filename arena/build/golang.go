package build

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/botarena/arena/arena/filestore"
	"github.com/botarena/arena/arena/submission"
	"github.com/botarena/arena/sandbox"
)

// Module is the arena's own Go module, which Go bots build against.
const Module = "github.com/botarena/arena"

// recipeGo versions the Go recipe: a change to the script below changes every artefact key.
const recipeGo = "go-3"

// goScript builds the package in /src into /build/out/bot, inside the sandbox. A submission
// without a go.mod of its own becomes module arenabot; either way the arena's module resolves
// to the kit, and nothing is fetched (GOPROXY=off) unless the organiser allows the network.
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
exec go build -trimpath -o /run/build/out/bot "./$ARENA_GO_PKG"
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

// Kit is the arena module's Go files, copied into the files store.
type Kit struct {
	Source string // the module root it was copied from
	submission.Snapshot
}

var (
	kitMu    sync.Mutex
	kitCache = map[string]Kit{}
)

// FindModule finds the arena module's root: $ARENA_SOURCE, or the first folder holding the
// arena's go.mod above the working directory, the given paths, or this executable.
func FindModule(near ...string) (string, error) {
	var starts []string
	if s := os.Getenv("ARENA_SOURCE"); s != "" {
		starts = append(starts, s)
	}
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	starts = append(starts, near...)
	if exe, err := os.Executable(); err == nil {
		starts = append(starts, filepath.Dir(exe))
	}
	for _, s := range starts {
		for dir, _ := filepath.Abs(s); ; dir = filepath.Dir(dir) {
			if isArenaModule(filepath.Join(dir, "go.mod")) {
				return dir, nil
			}
			if dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return "", fmt.Errorf("go bots build against the arena's source (%s) and none was found above the working directory: run from the arena's checkout or set ARENA_SOURCE", Module)
}

func isArenaModule(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(l, "module ")) == Module
		}
	}
	return false
}

// KitTrees are the parts of the arena's module a Go bot may import: the SDK, the generated
// protocol and the house bots' packages. The rest (host, store, web) is not in the kit, so an
// edit there neither reaches a bot's build nor re-warms the compiler cache.
var KitTrees = []string{"sdk", "proto", "bots"}

// LoadKit copies the arena module's go.mod, go.sum and the non-test .go files of KitTrees (no
// hidden, _ or testdata folder, no nested module) into the files store. Other files of the
// checkout (a store, replays, notes) never enter it.
func LoadKit(root, store string) (Kit, error) {
	kitMu.Lock()
	defer kitMu.Unlock()
	if k, ok := kitCache[root]; ok {
		return k, nil
	}
	keep := func(rel string, dir bool) bool {
		name := filepath.Base(rel)
		top, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		if dir {
			return slices.Contains(KitTrees, top) && !strings.HasPrefix(name, "_") && name != "testdata" && !exists(filepath.Join(root, rel, "go.mod"))
		}
		return rel == "go.mod" || rel == "go.sum" || (slices.Contains(KitTrees, top) && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go"))
	}
	snap, err := submission.Take(submission.Source{Arg: "the arena's Go source", Root: root}, store,
		submission.Limits{Files: 20000, Bytes: 256 << 20, Keep: keep})
	if err != nil {
		return Kit{}, fmt.Errorf("copy the arena's Go source from %s: %w", root, err)
	}
	k := Kit{Source: root, Snapshot: snap}
	kitCache[root] = k
	return k, nil
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
	wo := o
	wo.Limits.MemoryBytes = max(wo.Limits.MemoryBytes, 4<<30)
	wo.Limits.DiskBytes = max(wo.Limits.DiskBytes, 4<<30)
	wo.OutputQuota = -1 // the arena's own code, outside the files store
	s := step{
		name: "warm the Go cache", bot: "the arena's Go source", path: "/bin/sh",
		args: []string{"-c", "cd /run/kit && go build -mod=readonly -trimpath ./..."},
		env:  goEnv(tc, false, false), view: goView(tc),
		mounts: []sandbox.Mount{{Host: kit.Dir, At: "/run/kit"}},
		out:    "gocache",
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
	if err := os.WriteFile(filepath.Join(dir, "ready"), nil, 0o644); err != nil {
		return "", false, err
	}
	pruneCaches(store, o.Cache, filepath.Base(dir))
	return dir, true, nil
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
	// Near is where the submission came from: the arena's module is looked for above it too.
	Near string
}

// WarmGo warms the compiler cache Go builds use (once per toolchain and kit; minutes on a
// cold machine), so that a build's own time can be measured apart from it.
func WarmGo(o Options, near, store string) error {
	o = o.WithDefaults()
	tc, err := HostGo()
	if err != nil {
		return err
	}
	root, err := FindModule(near)
	if err != nil {
		return err
	}
	kit, err := LoadKit(root, store)
	if err != nil {
		return err
	}
	_, _, err = warmCache(o, tc, kit, store)
	return err
}

// Go builds a Go bot into store/art/<key>/bot.
func Go(o Options, b GoBot, store string) (Artefact, error) {
	o = o.WithDefaults()
	bot, snap, pkg := b.Name, b.Snap, b.Pkg
	tc, err := HostGo()
	if err != nil {
		return Artefact{}, err
	}
	root, err := FindModule(b.Near)
	if err != nil {
		return Artefact{}, err
	}
	kit, err := LoadKit(root, store)
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
		return s.run(o, dst)
	})
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
