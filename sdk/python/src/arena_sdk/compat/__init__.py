"""Seed compatibility: bot files written for the five original contests run unchanged.

Registered with :func:`arena_sdk.loader.register_detector` when the loader imports this package.
One detector handles every seed style:

- ``prepare`` reads the file's text (nothing runs yet) and recognises the styles that import the
  original contests' modules: ``generic_player``/``moves``/``game``/``test_player`` (finger),
  ``bidbot`` (bidding), ``Game`` (realtv) and ``client`` (auction). Only then, and only for that
  style, it puts the style's private shim directory (``arena_sdk/compat/_shims/<style>``) first
  on ``sys.path``: the shims exist only inside the bot process that needs them and never shadow
  a real package of the same name anywhere else. An auction client script is taken over without
  being imported (it is a script: each seat runs it as ``__main__``).
- ``detect`` finds the bot in the imported module: a ``GenericPlayer``, ``BidBot`` or
  ``Game.Player.Player`` subclass defined in the file, or a dynamite ``make_move`` function or
  class.
"""

from __future__ import annotations

import inspect
import re
from types import ModuleType
from typing import Any, Sequence

from arena_sdk import loader
from arena_sdk.compat import _shimpath
from arena_sdk.loader import BotFile, Detector, Entry, LoadError

__all__ = ["SeedDetector", "style_of"]

_NATIVE = re.compile(r"^\s*(?:from\s+arena_sdk\b|import\s+arena_sdk\b)", re.M)
_STYLES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("finger", re.compile(r"^\s*(?:from\s+(?:generic_player|moves|test_player)\s+import"
                          r"|import\s+(?:generic_player|moves|test_player)\b)", re.M)),
    ("bidding", re.compile(r"^\s*(?:from\s+bidbot\b|import\s+bidbot\b)", re.M)),
    ("realtv", re.compile(r"^\s*(?:from\s+Game(?:\.\w+)?\s+import|import\s+Game\b)", re.M)),
    ("auction", re.compile(r"^\s*(?:from\s+client\s+import|import\s+client\b)", re.M)),
)


def style_of(source: str) -> str | None:
    """The seed style a file's text shows by its imports, or None (dynamite needs no imports)."""
    if _NATIVE.search(source):
        return None
    for style, pattern in _STYLES:
        if pattern.search(source):
            return style
    return None


def _own(module: ModuleType, base: type, class_name: str | None) -> list[type]:
    """The bot classes (subclasses of base) defined in the bot's own file, or the named one."""
    if class_name is not None:
        cls = getattr(module, class_name, None)
        return [cls] if isinstance(cls, type) and issubclass(cls, base) and cls is not base else []
    return [o for n, o in vars(module).items()
            if isinstance(o, type) and getattr(o, "__module__", None) == module.__name__
            and issubclass(o, base) and o is not base and not n.startswith("_")]


def _one(bot: BotFile, game: str, candidates: list[type]) -> type | None:
    """The one class to play: a class another candidate subclasses is taken as a helper base when
    a single leaf remains; several leaves are an error that lists every candidate."""
    if bot.class_name is not None:
        for c in candidates:
            loader.check_concrete(bot.path.name, game, c)
    concrete = [c for c in candidates if not inspect.isabstract(c)]
    if candidates and not concrete:
        raise loader.abstract_bot(bot.path.name, game, candidates)
    leaves = [c for c in concrete if not any(o is not c and issubclass(o, c) for o in concrete)]
    if len(leaves) > 1:
        raise loader.several_bots(bot.path.name, game, concrete)
    return leaves[0] if leaves else None


class SeedDetector(Detector):
    """Bot files in the style of the original contests (see the package docstring)."""

    looks_for = "\n".join([
        "  - dynamite (seed): a module-level make_move(rounds), or a class with make_move(self, gamestate)",
        "  - finger (seed): class CustomPlayer(GenericPlayer) with move(self), importing generic_player and moves",
        "  - bidding (seed): a bidbot.BidBot.BidBot subclass with get_bid(self, game_state), "
        "handed to bidbot.BotClient.connect(...) by main()",
        "  - auction (seed): a client script doing `from client import Client` and Client(name, (host, port))",
        "  - realtv (seed): a Game.Player.Player subclass with getSteemUser(), voteForElimination(context) "
        "and voteForTie(context)",
    ])

    def __init__(self) -> None:
        self._styles: dict[str, str | None] = {}

    def prepare(self, bot: BotFile) -> Sequence[Entry] | None:
        style = style_of(bot.source)
        self._styles[str(bot.path)] = style
        if style is None:
            return None
        _shimpath.install(style)
        if style == "auction":
            from arena_sdk.compat import auction

            try:
                code = compile(bot.source, str(bot.path), "exec")
            except SyntaxError as e:
                raise LoadError(f"{bot.path.name} is not valid Python: {e}") from e
            path = bot.path
            return [Entry(game="auction", name=path.stem, make=lambda: auction.ScriptBot(path, code),
                          style="seed-auction")]
        return None

    def detect(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        style = self._styles.get(str(bot.path))
        if style == "finger":
            return self._finger(bot, module)
        if style == "bidding":
            return self._bidding(bot, module)
        if style == "realtv":
            return self._realtv(bot, module)
        return self._dynamite(bot, module)

    def _dynamite(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        from arena_sdk.compat import dynamite

        fn, classes = dynamite.candidates(module)
        if bot.class_name is not None:
            cls: Any = getattr(module, bot.class_name, None)
            if not (isinstance(cls, type) and callable(getattr(cls, "make_move", None))):
                return ()
            loader.check_concrete(bot.path.name, "dynamite", cls)
            return [Entry(game="dynamite", name=cls.__name__, make=lambda: dynamite.ClassBot(cls()),
                          style="seed-dynamite")]
        if fn is not None:
            f = fn
            return [Entry(game="dynamite", name=bot.path.stem, make=lambda: dynamite.FunctionBot(f),
                          style="seed-dynamite")]
        one = _one(bot, "dynamite", classes)
        if one is None:
            return ()
        return [Entry(game="dynamite", name=one.__name__, make=lambda: dynamite.ClassBot(one()),
                      style="seed-dynamite")]

    def _finger(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        from generic_player import GenericPlayer  # the shim

        from arena_sdk.compat import finger

        cls = _one(bot, "finger", _own(module, GenericPlayer, bot.class_name))
        if cls is None:
            return ()
        name = finger.instance_name(module, cls)
        return [Entry(game="finger", name=name, make=lambda: finger.PlayerBot(cls, name), style="seed-finger")]

    def _bidding(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        from bidbot.BidBot import BidBot  # the shim

        from arena_sdk.compat import bidding

        cls = _one(bot, "bidding", _own(module, BidBot, bot.class_name))
        main = bidding._own_function(module, "main")
        if cls is None and (main is None or "connect" not in bot.source):
            return ()
        name = cls.__name__ if cls is not None else bot.path.stem
        return [Entry(game="bidding", name=name, make=lambda: bidding.BidBotAdapter(module, cls, use_main=bot.class_name is None),
                      style="seed-bidding")]

    def _realtv(self, bot: BotFile, module: ModuleType) -> Sequence[Entry]:
        from Game.Player import Player  # the shim

        from arena_sdk.compat import realtv

        cls = _one(bot, "realtv", _own(module, Player, bot.class_name))
        if cls is None:
            return ()
        return [Entry(game="realtv", name=cls.__name__, make=lambda: realtv.PlayerBot(cls), style="seed-realtv")]


loader.register_detector(SeedDetector())
