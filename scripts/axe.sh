#!/usr/bin/env bash
# Prints the path of axe.min.js, the accessibility engine the server's browser tests inject
# into every page (arena/server TestEveryPage), installing the version pinned by
# tools/axe/package.json and package-lock.json into the project-local cache .cache/axe with
# `npm ci` (which fails unless the tarball matches the lockfile's sha512 integrity hash). The
# install is reused while the cached lockfile is byte-identical to the committed one.
# $ARENA_AXE, when set, names the file to use and nothing is installed. Exits non-zero with the
# reason on stderr when it cannot be had, so that a caller under `set -e` fails.
# Upgrading: change the version in tools/axe/package.json, then
#   (cd tools/axe && npm install --package-lock-only --ignore-scripts)
# and commit both files.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${ARENA_AXE:-}" ]; then
  if [ -f "$ARENA_AXE" ]; then echo "$ARENA_AXE"; exit 0; fi
  echo "axe.sh: ARENA_AXE=$ARENA_AXE is not a file; unset it or point it at axe-core's axe.min.js" >&2
  exit 1
fi
pin="$PWD/tools/axe"
dir="$PWD/.cache/axe"
js="$dir/node_modules/axe-core/axe.min.js"
if ! cmp -s "$pin/package-lock.json" "$dir/package-lock.json" || [ ! -f "$js" ]; then
  if ! command -v npm >/dev/null; then
    echo "axe.sh: npm is needed to install the pinned axe-core: install Node.js with npm (apt install npm)" >&2
    exit 1
  fi
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$pin/package.json" "$pin/package-lock.json" "$dir/"
  if ! (cd "$dir" && npm_config_update_notifier=false npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2); then
    rm -rf "$dir"
    echo "axe.sh: npm ci of $pin/package-lock.json failed (an integrity mismatch or no registry): see above" >&2
    exit 1
  fi
fi
echo "$js"
