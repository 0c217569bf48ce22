"""The games this SDK knows, by registry name, and where each game's API lives."""

from __future__ import annotations

import importlib
import sys
from typing import Final

#: Game registry name -> the method a native bot implements (for messages and docs).
SIGNATURES: Final[dict[str, str]] = {
    "dynamite": "move(self, state) -> 'R' | 'P' | 'S' | 'D' | 'W'",
    "finger": "move(self, state) -> Move.LEFT_TO_RIGHT ... | Move.SWITCH(left, right)",
    "bidding": "bid(self, state) -> int",
    "auction": "bid(self, state) -> int",
    "realtv": "vote_for_elimination(self, ctx) and vote_for_tie(self, ctx) -> PlayerContext | id",
}

NAMES: Final[tuple[str, ...]] = tuple(SIGNATURES)


def module(game: str):  # type: ignore[no-untyped-def]
    """The game's API module, e.g. arena_sdk.dynamite."""
    return importlib.import_module(f"arena_sdk.{game}")


def imported_bot_bases() -> dict[str, type]:
    """The Bot base classes of the game modules imported so far. A bot class can only subclass
    one of these (its file imported the module), and importing the other games' modules would
    cost a bot's start-up for nothing."""
    out = {}
    for g in NAMES:
        mod = sys.modules.get(f"arena_sdk.{g}")
        bot = getattr(mod, "Bot", None)
        if isinstance(bot, type):
            out[g] = bot
    return out


def seat_class(game: str) -> type:
    """The seat implementation of a game (internal)."""
    return module(game)._Seat  # type: ignore[no-any-return]
