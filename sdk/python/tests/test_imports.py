"""The SDK's modules import each other without a circle, counting imports inside functions
(which hide a circle from Python without removing it)."""

from __future__ import annotations

import ast
from pathlib import Path

from arena_sdk.games import SIGNATURES

SRC = Path(__file__).resolve().parents[1] / "src"


def module_names(root: Path) -> dict[str, Path]:
    """arena_sdk's modules (without the generated _pb stubs), by dotted name."""
    out = {}
    for path in (root / "arena_sdk").rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        if "_pb" in parts or "_shims" in parts:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the SDK modules it imports anywhere in its code (top level or in a function)."""
    mods = module_names(root)
    graph: dict[str, set[str]] = {m: set() for m in mods}
    for name, path in mods.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # "from arena_sdk import games" imports the submodule games; a plain name
                # (__version__) comes from the package itself.
                targets = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in mods else node.module
                           for a in node.names]
            else:
                continue
            graph[name].update(t for t in targets if t in mods and t != name)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of the graph, as a path that ends where it starts; None if none."""
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_sdk_has_no_import_circle() -> None:
    graph = import_graph(SRC)
    assert "arena_sdk._common" in graph and "arena_sdk._runner" in graph
    cycle = find_cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle or [])


def test_the_circle_finder_finds_a_hidden_circle(tmp_path: Path) -> None:
    pkg = tmp_path / "arena_sdk"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from arena_sdk import b\n")
    (pkg / "b.py").write_text("def f():\n    from arena_sdk.a import x\n")
    assert find_cycle(import_graph(tmp_path)) == ["arena_sdk.a", "arena_sdk.b", "arena_sdk.a"]


def test_the_game_modules_and_the_handshake_stay_leaves_of_the_runtime() -> None:
    graph = import_graph(SRC)
    for game in SIGNATURES:  # every game (TestEveryGame checks the table against the registry)
        assert "arena_sdk._runner" not in graph[f"arena_sdk.{game}"]
        assert "arena_sdk._service" not in graph[f"arena_sdk.{game}"]
    assert graph["arena_sdk._handshake"] <= {"arena_sdk.loader"}
