#!/usr/bin/env bash
# Proves the README on a brand-new machine: a fresh clone of this checkout, with an empty HOME,
# Go module cache, Go build cache (unless ARENA_FRESH_GOCACHE shares one, below) and user
# cache (but for the arena's compiler caches, when ARENA_FRESH_BUILDCACHE shares them), and a private, empty files store (its own mount namespace, so nothing the machine
# already built can hide a missing step), runs
# scripts/demo.sh; then the arena is installed with `go install` into an empty GOBIN and, from a
# folder outside any checkout, plays a Go bot, a Python file and a stdio kit bot copied there.
# Run by scripts/test.sh; needs root (unshare -m) like the full sandbox.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)

if [ -z "${ARENA_FRESH_NS:-}" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "fresh.sh: needs root for a private mount namespace (unshare -m); run it as root, as CI does" >&2
    exit 1
  fi
  exec unshare -m --propagation private env ARENA_FRESH_NS=1 bash "$0" "$@"
fi

# An empty files store and sandbox state, seen by this namespace only.
mkdir -p /run/arena-sandbox
mount -t tmpfs -o mode=0755 arena-fresh /run/arena-sandbox

scratch=$(mktemp -d /tmp/arena-fresh.XXXXXX)
cleanup() { chmod -R u+w "$scratch" 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
mkdir -p "$scratch"/{home,gomod,gocache,cache,gopath,gobin,elsewhere}

# ARENA_FRESH_GOCACHE (scripts/test.sh sets it) shares a Go build cache: the cache is keyed by
# every input of a build, so a warm one changes how long a build takes, never its result, and
# the module cache, HOME, the user cache and the files store, behind which a missing step could
# hide, stay empty all the same. Without it the build cache is empty too.
gocache="${ARENA_FRESH_GOCACHE:-$scratch/gocache}"
shared_gocache="${ARENA_FRESH_GOCACHE:-}" # read before the ARENA_ variables are unset below
# ARENA_FRESH_BUILDCACHE (scripts/test.sh sets it too) shares the arena's own warmed compiler
# caches (<user cache>/arena/build: the Go kit compiled once per toolchain and kit, in a
# sandbox, from the arena's own code) for the same reason: keyed by toolchain and kit, built
# under a lock that every arena process takes, whichever lane warms first; a warm-up changes how
# long the first Go bot takes, never what it does. The module cache it builds against is still
# this machine's own, filled by the arena from an empty one. Without it the cache is empty too.
buildcache="${ARENA_FRESH_BUILDCACHE:-}"

# A new user's environment: nothing of this machine's caches or of the arena's own variables.
for v in $(env | sed -n 's/^\(ARENA_[A-Z_]*\)=.*/\1/p'); do
  [ "$v" = ARENA_FRESH_NS ] || unset "$v"
done
unset GOFLAGS GOENV VIRTUAL_ENV PYTHONPATH
export HOME="$scratch/home" GOMODCACHE="$scratch/gomod" GOCACHE="$gocache" \
  XDG_CACHE_HOME="$scratch/cache" GOPATH="$scratch/gopath" GOFLAGS=-modcacherw
if [ -n "$buildcache" ]; then
  mkdir -p "$buildcache" "$XDG_CACHE_HOME/arena"
  ln -s "$buildcache" "$XDG_CACHE_HOME/arena/build"
fi
# With a shared build cache, -trimpath as scripts/test.sh builds: keyed by module and version
# rather than by this clone's and module cache's folders, the packages test.sh compiled are
# found, not compiled again; it changes no build's behaviour, only the paths in its debug data.
# (Until 3 December this tested ARENA_FRESH_GOCACHE after the loop above had unset it: the
# demo's build missed every shared package, about 120 CPU-seconds of each test run.)
if [ -n "$shared_gocache" ]; then GOFLAGS="$GOFLAGS -trimpath"; fi

step() { printf '\n== fresh machine: %s (%ss)\n' "$*" "$SECONDS"; }

step "clone"
git clone -q "$src" "$scratch/clone"

step "scripts/demo.sh (the README's first command)"
(cd "$scratch/clone" && bash scripts/demo.sh --seed 7)

step "go install into an empty GOBIN"
(cd "$scratch/clone" && GOBIN="$scratch/gobin" go install ./arena/cmd/arena)
arena="$scratch/gobin/arena"
"$arena" version

step "play from a folder outside the checkout"
cd "$scratch/elsewhere"
cp -R "$scratch/clone/examples/go/dynamite" gobot
rm -f gobot/*_test.go
cp "$scratch/clone/examples/python/dynamite/bot.py" pybot.py
cp -R "$scratch/clone/examples/javascript/dynamite" jsbot
"$arena" play dynamite gobot pybot.py --seed 3
"$arena" play dynamite jsbot gobot --seed 4
step "done"
