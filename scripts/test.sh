#!/usr/bin/env bash
# Runs every test on a fresh machine: installs what the tests need (Go modules, the Python SDK
# with its test dependencies), checks that generated code is fresh and that the wire contract
# has no breaking change against main (buf breaking), then runs vet, the Go tests, mypy on the
# Python SDK and the Python tests.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "install: Go modules, Python SDK"
go mod download
. scripts/venv.sh
# Under this script every sandbox layer must be active: a missing one fails its tests.
export ARENA_REQUIRE_SANDBOX=1
if ! go mod tidy -diff >/dev/null; then
  echo "go.mod or go.sum is not tidy (Go bots build against it read-only): run go mod tidy" >&2
  exit 1
fi

step "generated code is fresh (scripts/generate.sh)"
scripts/generate.sh >/dev/null
if ! git diff --exit-code --stat -- proto sdk/python/src/arena_sdk/_pb examples/typescript/proto; then
  echo "generated code is stale: run scripts/generate.sh and commit the result" >&2
  exit 1
fi
if [ -n "$(git status --porcelain -- proto sdk/python/src/arena_sdk/_pb examples/typescript/proto)" ]; then
  git status --porcelain -- proto sdk/python/src/arena_sdk/_pb examples/typescript/proto
  echo "generated files are missing from git: run scripts/generate.sh and commit the result" >&2
  exit 1
fi

step "wire contract: no breaking change against main (scripts/breaking.sh)"
scripts/breaking.sh

step "gofmt and go vet"
bad=$(gofmt -l $(git ls-files '*.go' | grep -v '\.pb\.go$'))
if [ -n "$bad" ]; then echo "gofmt needed: $bad" >&2; exit 1; fi
go vet ./...
# The arena builds on macOS too (a degraded sandbox there: rlimits, its own process group).
GOOS=darwin GOARCH=arm64 go build ./...

step "a brand-new machine: scripts/demo.sh from a fresh clone with empty caches and files store, then go install and play from outside the checkout (scripts/fresh.sh)"
bash scripts/fresh.sh

ARENA_CHROMIUM=$(scripts/chromium.sh); export ARENA_CHROMIUM # the browser tests' Chromium (apt-installed when missing)
step "Go tests"
go test -count=1 -timeout 20m ./...

step "the degraded sandbox (what macOS gets), run here with -tags arenadegraded"
go test -count=1 -tags arenadegraded ./sandbox

step "the sandbox on cgroup v2 in a real VM: Debian's kernel under qemu, every layer, hostile bots, the container and delegated-user variants (scripts/vm/leg.sh)"
scripts/vm/leg.sh

step "Go fuzz: the host's handling of bot answers, briefly"
go test -run='^$' -fuzz=FuzzBotAnswers -fuzztime=20s ./arena/hostile
go test -run='^$' -fuzz=FuzzTraceback -fuzztime=5s ./arena/bounded

step "mypy on the Python SDK (strict; settings in sdk/python/pyproject.toml)"
py=$ARENA_PYTHON
case $py in /*) ;; */*) py=$PWD/$py ;; esac
(cd sdk/python && "$py" -m mypy)

step "Python tests"
"$ARENA_PYTHON" -m pytest -q sdk/python/tests

step "the language kits' own self-tests (JavaScript, Rust, Java, C++)"
scratch=$(mktemp -d "${XDG_CACHE_HOME:-$HOME/.cache}/arena-kit-tests.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
node --test sdk/javascript/test/
CARGO_TARGET_DIR="$scratch/rust" cargo test -q --offline --manifest-path sdk/rust/Cargo.toml
javac -d "$scratch/java" -sourcepath sdk/java sdk/java/test/SelfTest.java && java -cp "$scratch/java" SelfTest
g++ -std=c++20 -O1 -I sdk/cpp sdk/cpp/test/selftest.cpp -o "$scratch/cpp-selftest" && "$scratch/cpp-selftest" sdk/cpp/test
