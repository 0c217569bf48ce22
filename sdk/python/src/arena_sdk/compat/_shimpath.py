"""The private directories of shim modules, put on sys.path only inside a bot process.

Each seed style has its own directory under ``_shims/``: the runner's loader adds just the one
a detected bot file needs, in front of everything else (so the shims win over the original
contest's files lying next to the bot), and nothing is added for any other file. Importing
``arena_sdk`` or ``arena_sdk.compat`` never touches sys.path.
"""

from __future__ import annotations

import os
import sys

SHIM_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_shims")

#: Top-level module names each style's shim directory provides.
MODULES: dict[str, tuple[str, ...]] = {
    "finger": ("generic_player", "moves", "game", "test_player"),
    "bidding": ("bidbot",),
    "auction": ("client",),
    "realtv": ("Game",),
}


def directory(style: str) -> str:
    return os.path.join(SHIM_ROOT, style)


def install(style: str) -> str:
    """Puts the style's shim directory first on sys.path and forgets any module of the same
    names imported before (the bot must get the shim). Returns the directory."""
    path = directory(style)
    if path in sys.path:
        sys.path.remove(path)
    sys.path.insert(0, path)
    for top in MODULES[style]:
        for name in [m for m in sys.modules if m == top or m.startswith(top + ".")]:
            mod = sys.modules[name]
            if not (getattr(mod, "__file__", None) or "").startswith(path):
                del sys.modules[name]
    return path
