#!/usr/bin/env bash
# Plays one match between a Python bot and a Go house bot (dynamite) on a fresh machine: builds
# the arena, which carries its own kits; on first need it fetches the Go modules its kit needs
# into the Go module cache and makes its own Python environment with the SDK in the user's
# cache (announced once). Extra arguments go to `arena play` (for example --seed 7 --replay
# /tmp/match.json). Needs Go, Python 3.10+ with its venv module, and the network the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
go build -o bin/arena ./arena/cmd/arena
exec bin/arena play dynamite examples/python/dynamite/bot.py house:dynamite/beatlast "$@"
