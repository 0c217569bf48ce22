#!/usr/bin/env bash
# Regenerates every generated file from proto/: Go (committed beside the protos), Python
# (committed in the Python SDK) and every kit's wire tables (internal/kitgen). Tools are
# pinned: buf's prebuilt binary in tools/buf (npm's lockfile, scripts/buf.sh), the Go plugins
# as `tool` lines in tools/go.mod (buf.gen.yaml runs them with `go tool`, whose executables the
# Go build cache keeps, so they are compiled once, not on every run), grpcio-tools below.
set -euo pipefail
cd "$(dirname "$0")/.."
GRPC_TOOLS_VERSION=1.85.1
. scripts/buf.sh

buf lint
rm -f proto/arena/v1/*.pb.go
buf generate

# grpcio-tools lives in the project's virtual environment (scripts/venv.sh), never the system's.
ARENA_PYTHON="${ARENA_PYTHON:-$PWD/.venv/bin/python}"
if ! "$ARENA_PYTHON" -c "import grpc_tools, importlib.metadata as m; assert m.version('grpcio-tools') == '$GRPC_TOOLS_VERSION'" 2>/dev/null; then
  . scripts/venv.sh "grpcio-tools==$GRPC_TOOLS_VERSION"
fi
python3() { "$ARENA_PYTHON" "$@"; }
out=sdk/python/src/arena_sdk/_pb
rm -rf "$out"
mkdir -p "$out"
python3 -m grpc_tools.protoc -Iproto --python_out="$out" --pyi_out="$out" --grpc_python_out="$out" proto/arena/v1/*.proto
# go-plugin's own services (controller, stdio, broker), from the SDK's minimal interface files.
python3 -m grpc_tools.protoc -Isdk/python/proto --python_out="$out" --pyi_out="$out" --grpc_python_out="$out" sdk/python/proto/plugin/*.proto
# The generated modules import each other as "arena.v1.x" / "plugin.x"; make them relative to the SDK.
find "$out" \( -name '*.py' -o -name '*.pyi' \) -print0 | xargs -0 sed -i -E \
  -e 's/^from arena\.v1 import/from arena_sdk._pb.arena.v1 import/' \
  -e 's/^from plugin import/from arena_sdk._pb.plugin import/'
touch "$out/__init__.py" "$out/arena/__init__.py" "$out/arena/v1/__init__.py" "$out/plugin/__init__.py"
# The TypeScript native kit loads the .proto files at start-up: it carries an exact copy.
rm -f sdk/typescript/proto/arena/v1/*.proto
cp proto/arena/v1/*.proto sdk/typescript/proto/arena/v1/
# Every kit's wire tables (games, enums, messages) and the TypeScript kit's message types, read
# from the Go descriptors just generated (internal/kitgen).
go run ./internal/kitgen/cmd/kitgen -root .
# The registry's one import per game (arena/games/all/all.go), from the folders arena/games/<game>.
go run ./internal/gamelist/cmd/gamelist -root .
echo "generated: proto/arena/v1/*.pb.go, $out, sdk/typescript/proto, the kits' wire tables (internal/kitgen), arena/games/all/all.go (internal/gamelist)"
