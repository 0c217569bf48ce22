# Sourced by the other scripts: makes (once) and uses the project's own Python virtual
# environment in .venv, so nothing is pip-installed into the system interpreter (Debian and
# Ubuntu refuse that, PEP 668). Bots run with it too: ARENA_PYTHON points at its python, which
# the sandbox starts as the venv's own interpreter.
# Usage: . scripts/venv.sh [pip requirement...]   (default: the SDK with its test extras)
VENV="${ARENA_VENV:-$PWD/.venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV" || {
    echo "cannot make a virtual environment in $VENV: install python3-venv (apt install python3-venv)" >&2
    exit 1
  }
fi
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${@:-./sdk/python[test]}"
export ARENA_PYTHON="$VENV/bin/python"
