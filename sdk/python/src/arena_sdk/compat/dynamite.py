"""Dynamite bots as the seed wrote them: a module-level ``make_move(rounds)`` function, or a class
(constructed with no arguments) with ``make_move(self, gamestate)``."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from arena_sdk import dynamite


class FunctionBot(dynamite.Bot):
    """Calls the module's ``make_move(rounds)`` with the seed's list of rounds."""

    def __init__(self, fn: Callable[[list[dict[str, str]]], Any]) -> None:
        self._fn = fn

    def move(self, state: dynamite.State) -> Any:
        return self._fn(state.as_seed_rounds())


class ClassBot(dynamite.Bot):
    """Wraps one instance of the seed class bot: ``make_move({'rounds': [...]})``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def move(self, state: dynamite.State) -> Any:
        return self.inner.make_move(state.as_seed_gamestate())


def _has_make_move(cls: type) -> bool:
    return callable(getattr(cls, "make_move", None))


def candidates(module: ModuleType) -> tuple[Callable[..., Any] | None, list[type]]:
    """The module's own make_move function (or None) and all its own classes with make_move
    (helper bases included: the caller picks the leaf, and an error lists them all)."""
    fn = vars(module).get("make_move")
    if not (callable(fn) and not isinstance(fn, type) and getattr(fn, "__module__", None) == module.__name__):
        fn = None
    classes = [o for n, o in vars(module).items()
               if isinstance(o, type) and getattr(o, "__module__", None) == module.__name__
               and not n.startswith("_") and _has_make_move(o)]
    return fn, classes
