#!/usr/bin/env bash
# Runs every test on a fresh machine: installs what the tests need (Go modules, the Python SDK
# with its test dependencies), checks that generated code is fresh and that the wire contract
# has no breaking change against main (buf breaking), then runs vet, the Go tests (the fuzz
# targets' corpora among them), and, beside them, scripts/fresh.sh (a brand-new machine), the other
# languages (mypy and the Python tests, the kits' self-tests), the macOS type-check and the VM leg
# (the sandbox on cgroup v2, in Debian's kernel under qemu: scripts/vm/leg.sh), on by default
# since it passed a whole run beside the other lanes (3 December 2026, at load 20-30 from other
# work: 1012 s); ARENA_VM_LEG=0 leaves it out, `bash scripts/test.sh --lane vm` runs it alone.
#
# Time: after the installs and gofmt, independent lanes run at once, because much of their
# time is spent waiting (downloads, bots that sleep, subprocesses, an emulated VM's two CPUs)
# rather than computing, each into its own log, printed whole when it ends: go vet first; once
# it has compiled every package, the generated code's and the wire contract's checks (in a copy
# of the tree), the other languages, the macOS type-check, fresh.sh, the VM leg and the Go lane
# (in the foreground), which share what it compiled. Every step prints the seconds
# since the start; the end prints each lane's time and CPU-seconds. Fuzzing (the fuzz lane) is
# not in the default run: ARENA_FUZZ=1 adds it, `bash scripts/test.sh --lane fuzz` runs it alone.
# The tests' few wall-clock bounds stretch with ARENA_TEST_SLACK (internal/slack): raise it on
# a machine that is busy with other work.
set -euo pipefail
cd "$(dirname "$0")/.."

# Seconds since the run started, in the lanes too.
export ARENA_TEST_T0="${ARENA_TEST_T0:-$(date +%s)}"
# -trimpath: compiled packages are keyed by module and version, not by the folders they were
# read from, so the fresh clone's build (scripts/fresh.sh, its own clone and module cache) finds
# what go vet compiled here instead of compiling the arena and its modules again (its build of
# the arena: 84 CPU-seconds without, 4 with). No test reads its own source paths.
case " ${GOFLAGS:-} " in *" -trimpath "*) ;; *) export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath" ;; esac
step() { printf '\n== %s (%ss)\n' "$*" "$(($(date +%s) - ARENA_TEST_T0))"; }

# The lanes run as `bash scripts/test.sh --lane NAME`, so that each has set -e of its own.
lane_fresh() {
  step "a brand-new machine: scripts/demo.sh from a fresh clone with empty caches and files store, then go install and play from outside the checkout (scripts/fresh.sh)"
  # The Go build cache is shared: it is keyed by every input of a build, so a warm one changes
  # how long the demo's build takes, never what it does; HOME, the Go module cache, the user
  # cache and the files store, where a missing step could hide, stay empty.
  # The arena's warmed compiler caches likewise (fresh.sh says why): the Go lane warms the same
  # kit's, about 125 CPU-seconds cold, which the fresh clone compiled a second time.
  ARENA_FRESH_GOCACHE=$(go env GOCACHE) ARENA_FRESH_BUILDCACHE="${XDG_CACHE_HOME:-$HOME/.cache}/arena/build" bash scripts/fresh.sh
}

lane_languages() {
  step "mypy on the Python SDK (strict; settings in sdk/python/pyproject.toml)"
  py=$ARENA_PYTHON
  case $py in /*) ;; */*) py=$PWD/$py ;; esac
  (cd sdk/python && "$py" -m mypy)

  step "Python tests"
  "$ARENA_PYTHON" -m pytest -q sdk/python/tests

  # The language kits' own self-tests.
  scratch=$(mktemp -d "${XDG_CACHE_HOME:-$HOME/.cache}/arena-kit-tests.XXXXXX")
  trap 'rm -rf "$scratch"' EXIT
  step "the JavaScript kit's self-tests"
  node --test sdk/javascript/test/
  step "the TypeScript kit's self-tests (in a copy, so that the checkout stays clean: npm ci fetches its packages)"
  mkdir "$scratch/ts"
  cp -R sdk/typescript/package.json sdk/typescript/package-lock.json sdk/typescript/tsconfig.json \
    sdk/typescript/src sdk/typescript/proto sdk/typescript/test "$scratch/ts/"
  npm ci --prefix "$scratch/ts" --ignore-scripts --no-audit --no-fund
  npm run --prefix "$scratch/ts" build
  node --test "$scratch/ts/test/"
  step "the Rust kit's self-tests"
  CARGO_TARGET_DIR="$scratch/rust" cargo test -q --offline --manifest-path sdk/rust/Cargo.toml
  step "the Java kit's self-test"
  # One command a line: under set -e a failure before && would not stop the lane.
  javac -d "$scratch/java" -sourcepath sdk/java sdk/java/test/SelfTest.java
  java -cp "$scratch/java" SelfTest
  step "the C++ kit's self-test (the library and the noisy bot; the examples are built and played by the Go lane's kit tests)"
  # --no-examples: building the five examples at -O2 was 27 of this step's 43 CPU-seconds, and
  # arena/e2e builds each by the arena's own recipe in its sandbox and plays a whole match.
  g++ -std=c++20 -O1 -I sdk/cpp sdk/cpp/test/selftest.cpp -o "$scratch/cpp-selftest"
  "$scratch/cpp-selftest" --no-examples sdk/cpp/test
}

# The arena builds on macOS too (a degraded sandbox there: rlimits, its own process group).
# Every package and every package's tests are type-checked for macOS from source
# (tools/crosscheck), so that a Linux-only name in a file without its build tag, or a
# Linux-only test file, fails here, not on a Mac. Type errors are how a platform breaks Go code;
# `go vet` or `go build` for darwin found the same by compiling every dependency to machine code
# first (modernc's SQLite, nats-server): about 200 CPU-seconds cold, against about 15 for this.
lane_macos() {
  step "type-check every package and its tests for macOS (tools/crosscheck, darwin/arm64)"
  go -C tools run ./crosscheck -goos darwin -goarch arm64 -C .. ./...

  step "the degraded sandbox (what macOS gets), run here with -tags arenadegraded"
  go test -count=1 -tags arenadegraded ./sandbox
}

# Fuzzing compiles its packages and all their dependencies again with coverage instrumentation:
# FuzzBotAnswers alone took 169 CPU-seconds from a cold cache, of which its 300 inputs took
# under 10 (3 December). The lanes keep both CPUs busy nearly the whole run, so that was about
# 100 s of the whole run's wall time for little coverage: it is opt-in (ARENA_FUZZ=1) and its
# corpora (testdata/fuzz, each input that once failed) run in the Go lane as plain tests. With
# ARENA_FUZZ=1 it runs after the macOS lane. FuzzBotAnswers runs a
# count of inputs, not a time: each fuzz worker first starts a sandboxed bot, and on a loaded
# machine a 20 s budget ended while they started ("context deadline exceeded" after 11 inputs).
lane_fuzz() {
  step "Go fuzz: the host's handling of bot answers, briefly"
  go test -run='^$' -fuzz=FuzzBotAnswers -fuzztime=300x ./arena/hostile
  go test -run='^$' -fuzz=FuzzTraceback -fuzztime=5s ./arena/bounded
}

# The sandbox where most users run it: cgroup v2 (systemd hosts, containers), in a VM booted
# with Debian's kernel under qemu, emulated (no KVM on CI machines): every layer required in
# the root cgroup, a container's cgroup and a delegated user's; the core hostile cases; a
# match per game; a tournament killed and resumed. About 10 minutes, mostly emulation; what
# it needs was installed before the lanes (scripts/vm/install.sh).
lane_vm() {
  step "the VM leg: the sandbox on cgroup v2 in Debian's kernel under qemu (scripts/vm/leg.sh)"
  bash scripts/vm/leg.sh
}

# The Go tests' longest packages, longest first (go test -json of whole runs). go test starts
# its packages' test binaries strictly in the order it is given them (Go 1.26 orders the runs
# with barriers), -p (the CPUs) at a time: alphabetically, arena/e2e, the longest, started
# tenth and arena/hostile, the next, twenty-fourth, behind packages of seconds. A package
# missing here only starts later; one listed that is gone fails the lane.
slow_go_packages=(arena/e2e arena/hostile arena/bench arena/cli arena/server arena/tournament arena/host)

lane_vet() {
  step "go vet"
  go vet ./...
}

# The generated code is checked in a copy of the tree, so that the other lanes can read the
# checkout meanwhile: scripts/generate.sh removes and writes the files it makes.
generated_paths=(proto sdk/python/src/arena_sdk/_pb sdk/typescript/proto sdk/anygame sdk/python/src/arena_sdk/_wire.py
  sdk/javascript/lib/wire.js sdk/typescript/src/types.ts sdk/rust/src/tables.rs sdk/java/arena/Tables.java
  sdk/cpp/arena/tables.hpp arena/games/all/all.go)
lane_generated() {
  step "wire contract: no breaking change against main (scripts/breaking.sh)"
  scripts/breaking.sh

  step "generated code is fresh (scripts/generate.sh in a copy of the tree, compared with it)"
  local p stale=0
  gen_copy=$(mktemp -d "${TMPDIR:-/tmp}/arena-generated.XXXXXX") # global: the EXIT trap reads it
  trap 'rm -rf "$gen_copy" "$gen_copy".*' EXIT
  # The tree as it is (committed or not, ignored files left out); the pinned buf the breaking
  # check just installed in the checkout (scripts/buf.sh), not a copy of its 96 MB. The other
  # lanes write into the checkout meanwhile (test output, caches): a file of theirs that
  # changes or goes while tar reads it is none of this check's business, and tar says so with
  # status 1 (CI17 failed here, silently); 2 is a real failure.
  local rc=0
  git ls-files -z --cached --others --exclude-standard >"$gen_copy.list"
  tar --null -T "$gen_copy.list" --ignore-failed-read -cf "$gen_copy.tar" 2>"$gen_copy.err" || rc=$?
  if [ "$rc" -gt 1 ]; then
    cat "$gen_copy.err" >&2
    echo "copying the tree for the generated code's check failed (tar exit $rc, above)" >&2
    exit 1
  fi
  tar -xf "$gen_copy.tar" -C "$gen_copy"
  ARENA_BUF_DIR="$PWD/.cache/buf" bash -c 'cd "$1" && scripts/generate.sh >/dev/null' generate "$gen_copy"
  for p in "${generated_paths[@]}"; do
    if ! diff -r -x __pycache__ "$p" "$gen_copy/$p"; then stale=1; fi
  done
  if [ $stale = 1 ]; then
    echo "generated code is stale (above: the checkout, then what scripts/generate.sh makes): run scripts/generate.sh and commit the result" >&2
    exit 1
  fi
  if [ -n "$(git status --porcelain -- "${generated_paths[@]}")" ]; then
    git status --porcelain -- "${generated_paths[@]}"
    echo "generated files are not committed: commit what scripts/generate.sh made" >&2
    exit 1
  fi
}

lane_go() {
  if [ -z "${ARENA_VETTED:-}" ]; then
    lane_vet
  fi

  step "Go tests (all but arena/fairness, which runs alone at the end; the slowest packages first)"
  local all first=() p
  all=$(go list ./... | grep -v '/arena/fairness$')
  for p in "${slow_go_packages[@]}"; do
    if ! grep -qx "github.com/botarena/arena/$p" <<<"$all"; then
      echo "scripts/test.sh: slow_go_packages names $p, which is no Go package now: update the list" >&2
      exit 1
    fi
    first+=("github.com/botarena/arena/$p")
  done
  # -ldflags=-w: no DWARF in the test binaries (stack traces come from the symbol table, kept),
  # which makes each cold link about 0.8 CPU-seconds (a third) cheaper, for some sixty binaries.
  # -vet=off: lane_vet ran every analyzer on every package, of which go test runs a few again.
  go test -count=1 -timeout 20m -vet=off -ldflags=-w "${first[@]}" $(grep -vxF -f <(printf '%s\n' "${first[@]}") <<<"$all")
}

if [ "${1:-}" = --lane ]; then
  "lane_$2"
  step "lane $2 passed"
  exit 0
fi

step "install: Go modules"
go mod download
if ! go mod tidy -diff >/dev/null; then
  echo "go.mod or go.sum is not tidy (Go bots build against it read-only): run go mod tidy" >&2
  exit 1
fi
if ! go -C tools mod tidy -diff >/dev/null; then
  echo "tools/go.mod or tools/go.sum is not tidy: run go -C tools mod tidy" >&2
  exit 1
fi

step "gofmt"
bad=$(gofmt -l $(git ls-files '*.go' | grep -v '\.pb\.go$'))
if [ -n "$bad" ]; then echo "gofmt needed: $bad" >&2; exit 1; fi

# The lanes: the background ones write their logs, printed whole when they end; the Go lane
# prints as it goes. Each lane leaves its exit status and seconds; all are waited for,
# even when one fails, so that every failure is reported in one run.
logs=$(mktemp -d "${TMPDIR:-/tmp}/arena-test-lanes.XXXXXX")
trap 'rm -rf "$logs"' EXIT
# A lane's CPU-seconds (children_cpu): on 2 cores the lanes together keep both CPUs busy nearly
# the whole run, so a lane's CPU, not its wall time, says what it costs the others.
. scripts/cpu.sh
# run_lane NAME (NICE=n: at that niceness)
run_lane() {
  local l=$1 start=$SECONDS rc=0 cpu0 cpu1
  children_cpu cpu0
  if [ "$l" = go ]; then
    bash scripts/test.sh --lane "$l" || rc=$?
  else
    nice -n "${NICE:-0}" bash scripts/test.sh --lane "$l" >"$logs/$l.log" 2>&1 || rc=$?
  fi
  children_cpu cpu1
  echo "$rc $((SECONDS - start)) $((cpu1 - cpu0))" >"$logs/$l.status"
}

# Before the other lanes: go vet compiles every package once, which the Go tests, the fresh
# clone's build, the VM leg's and the generated code's generators then share (GOFLAGS above);
# run beside them, each compiled most packages again (go run of internal/kitgen alone: 45
# CPU-seconds cold, under 1 after vet). Beside it only the downloads of the browser and the
# VM's tools. With the other lanes beside it too, vet took 218 s instead of 83 and the Go lane,
# the longest, started later (CI11, 3 December).
lanes=(vet)
step "lane vet starts in the background (its log follows the Go lane's)"
run_lane vet &
vet_job=$!

# Beside vet, which needs only the Go modules: the rest of the installs, mostly downloads.
step "install: the Python SDK with its test dependencies (scripts/venv.sh), Chromium, axe-core, the VM leg's tools"
. scripts/venv.sh
# Under this script every sandbox layer must be active: a missing one fails its tests.
export ARENA_REQUIRE_SANDBOX=1

ARENA_CHROMIUM=$(scripts/chromium.sh); export ARENA_CHROMIUM # the browser tests' Chromium (apt-installed when missing)
ARENA_AXE=$(scripts/axe.sh); export ARENA_AXE # axe-core for the accessibility check (npm ci of tools/axe's lockfile)
# The VM leg's qemu, kernel, busybox and virtme-ng (apt and pip, when missing): installed here,
# before its lane, so that no two apt-get runs overlap; a tool that cannot be had fails the run.
if [ "${ARENA_VM_LEG:-1}" = 1 ]; then
  scripts/vm/install.sh
fi
wait "$vet_job"
export ARENA_VETTED=1
# One arena binary from this checkout for every test that runs the real command (testenv's
# ARENA_TEST_ARENA) and for the VM leg: about ten of them each linked it (4-5 CPU-seconds a
# link of the 50 MB binary). scripts/fresh.sh builds its own, from its own clone.
step "the arena binary the Go tests and the VM leg run"
go build -ldflags=-w -o "$logs/bin/arena" ./arena/cmd/arena
export ARENA_TEST_ARENA=$logs/bin/arena
lanes+=(generated languages macos)
if [ "${ARENA_FUZZ:-0}" = 1 ]; then lanes+=(fuzz); fi
lanes+=(fresh)
if [ "${ARENA_VM_LEG:-1}" = 1 ]; then lanes+=(vm); fi
lanes+=(go)
step "go vet ended: lanes ${lanes[*]:1} start, the Go lane here, the others in the background"
if [ "${ARENA_VM_LEG:-1}" = 1 ]; then run_lane vm & fi
run_lane generated &
run_lane fresh &
run_lane languages &
{ run_lane macos; if [ "${ARENA_FUZZ:-0}" = 1 ]; then run_lane fuzz; fi; } &
run_lane go
step "waiting for the background lanes"
wait
failed=()
times=()
for l in "${lanes[@]}"; do
  if [ "$l" != go ]; then
    printf '\n==== lane %s: its log\n' "$l"
    cat "$logs/$l.log"
  fi
  rc=1 took=? cpu=?
  [ -f "$logs/$l.status" ] && read -r rc took cpu <"$logs/$l.status"
  times+=("$l ${took}s (exit $rc, ${cpu} CPU-s)")
  [ "$rc" = 0 ] || failed+=("$l")
done
# The fair clock's test makes its own oversubscription (two busy loops per core) and asserts no
# honest bot is charged under it: it runs alone, so that the load it asserts under is its own.
fair_start=$SECONDS
step "the fair clock under oversubscription, alone (arena/fairness)"
if go test -count=1 -timeout 10m ./arena/fairness; then
  times+=("fairness $((SECONDS - fair_start))s (exit 0)")
else
  times+=("fairness $((SECONDS - fair_start))s (exit 1)")
  failed+=(fairness)
fi
printf '\n== lane times: %sthe whole run %ss\n' "$(printf '%s; ' "${times[@]}")" "$(($(date +%s) - ARENA_TEST_T0))"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed lanes: ${failed[*]} (their output is above)" >&2
  exit 1
fi
