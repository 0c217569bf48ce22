#!/usr/bin/env bash
# Prints the path of a headless-capable Chromium for the browser tests, installing Debian's
# `chromium` package with apt when none is found. $ARENA_CHROMIUM, when set, names the binary
# to use and nothing is installed. Exits non-zero (with the reason on stderr) when no browser
# can be had, so that a caller under `set -e` fails instead of skipping the browser tests.
set -euo pipefail

if [ -n "${ARENA_CHROMIUM:-}" ]; then
  if [ -x "$ARENA_CHROMIUM" ]; then echo "$ARENA_CHROMIUM"; exit 0; fi
  echo "chromium.sh: ARENA_CHROMIUM=$ARENA_CHROMIUM is not an executable file; unset it or point it at a Chromium binary" >&2
  exit 1
fi

find_browser() {
  local c
  for c in chromium chromium-browser google-chrome-stable google-chrome headless_shell; do
    if command -v "$c" >/dev/null 2>&1; then command -v "$c"; return 0; fi
  done
  return 1
}

if find_browser; then exit 0; fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium.sh: no Chromium found and no apt-get to install one: install Chromium and set ARENA_CHROMIUM to its path" >&2
  exit 1
fi
sudo=
if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
    echo "chromium.sh: installing chromium needs root: run 'apt-get install chromium' as root, or set ARENA_CHROMIUM" >&2
    exit 1
  fi
fi
echo "chromium.sh: installing Debian's chromium (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >&2
$sudo apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >&2
if find_browser; then exit 0; fi
echo "chromium.sh: apt-get installed chromium but no chromium binary is on PATH" >&2
exit 1
