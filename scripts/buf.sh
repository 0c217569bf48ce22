# Sourced by scripts/generate.sh and scripts/breaking.sh: defines buf(), the buf CLI pinned by
# tools/buf/package.json and package-lock.json. It is buf's own prebuilt binary from npm
# (@bufbuild/buf and its per-platform package), not compiled from source: compiling buf took
# about 13 minutes of a cold run. `npm ci` installs exactly the lockfile's versions into the
# project-local cache .cache/buf and fails unless every tarball matches the lockfile's sha512
# integrity hash; the install is reused while the cached lockfile is byte-identical to the
# committed one, and buf must then report the pinned version.
# Upgrading: change the version in tools/buf/package.json, then
#   (cd tools/buf && npm install --package-lock-only --ignore-scripts)
# and commit both files.
buf_pin="$PWD/tools/buf"
buf_dir="${ARENA_BUF_DIR:-$PWD/.cache/buf}" # ARENA_BUF_DIR: another checkout's install (the test command's copy of the tree)
buf_version=$(sed -n 's/.*"@bufbuild\/buf": *"\([^"]*\)".*/\1/p' "$buf_pin/package.json")
if [ -z "$buf_version" ]; then
  echo "buf: no @bufbuild/buf version in $buf_pin/package.json" >&2
  exit 1
fi

buf_install() {
  if ! command -v npm >/dev/null; then
    echo "buf: npm is needed to install the pinned buf $buf_version: install Node.js with npm (apt install npm)" >&2
    return 1
  fi
  rm -rf "$buf_dir"
  mkdir -p "$buf_dir"
  cp "$buf_pin/package.json" "$buf_pin/package-lock.json" "$buf_dir/"
  # --ignore-scripts: the package's postinstall only swaps its node launcher for the binary.
  if ! (cd "$buf_dir" && npm_config_update_notifier=false npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2); then
    rm -rf "$buf_dir"
    echo "buf: npm ci of $buf_pin/package-lock.json failed (an integrity mismatch or no registry): see above" >&2
    return 1
  fi
}

if ! cmp -s "$buf_pin/package-lock.json" "$buf_dir/package-lock.json" || [ ! -x "$buf_dir/node_modules/.bin/buf" ]; then
  buf_install || exit 1
fi
if [ "$("$buf_dir/node_modules/.bin/buf" --version 2>/dev/null)" != "$buf_version" ]; then
  echo "buf: $buf_dir does not run buf $buf_version (reinstalling)" >&2
  buf_install || exit 1
  if [ "$("$buf_dir/node_modules/.bin/buf" --version 2>/dev/null)" != "$buf_version" ]; then
    echo "buf: the installed buf does not report version $buf_version: check tools/buf/package-lock.json" >&2
    exit 1
  fi
fi
buf() { "$buf_dir/node_modules/.bin/buf" "$@"; }
