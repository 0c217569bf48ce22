# Sourced by the scripts in scripts/vm: puts virtme-ng's commands (vng, virtme-run) on PATH.
# virtme-ng is pip-installed into the arena's virtual environment (scripts/venv.sh's
# $ARENA_VENV, default .venv in the checkout) by scripts/vm/install.sh; $ARENA_VM_VENV names
# another environment that has it.
ARENA_VM_VENV=${ARENA_VM_VENV:-${ARENA_VENV:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/.venv}}
if [ -x "$ARENA_VM_VENV/bin/vng" ]; then PATH=$ARENA_VM_VENV/bin:$PATH; fi
export PATH ARENA_VM_VENV
