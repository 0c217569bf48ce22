#!/usr/bin/env bash
# Sets everything up on a fresh machine and plays one match between a Python bot and a Go bot:
# installs the Python SDK, builds the arena, then plays dynamite. Extra arguments go to
# `arena play` (for example --seed 7 --replay /tmp/match.json).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/venv.sh ./sdk/python
go build -o bin/arena ./arena/cmd/arena
exec bin/arena play dynamite examples/python/dynamite/bot.py bots/dynamite/cmd/beatlast "$@"
