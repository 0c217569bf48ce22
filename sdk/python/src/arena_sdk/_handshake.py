"""What the arena host and this SDK agree on before any gRPC call, and what a person who runs a
bot file by hand is told (the Python side of the Go SDK's ``sdk/handshake``).

A leaf of the SDK's import graph: ``_common`` (every game module) and ``_runner`` import it, and
it imports only :mod:`arena_sdk.loader`'s ``parse_spec``.
"""

from __future__ import annotations

import re
from typing import Final

from arena_sdk.loader import parse_spec

COOKIE_KEY: Final = "ARENA_BOT_COOKIE"
COOKIE_VALUE: Final = "b0t-4r3n4-c0nt3st-v1"
#: go-plugin's core protocol version and the arena's application protocol version (= arena.v1).
CORE_PROTOCOL_VERSION: Final = 1
PROTOCOL_VERSION: Final = 1

#: A house bot per game, suggested as the opponent when a bot file is run by hand.
HOUSE_BOTS: Final = {
    "dynamite": "bots/dynamite/cmd/paper",
    "finger": "bots/finger/cmd/random",
    "bidding": "bots/bidding/cmd/random",
    "auction": "bots/auction/cmd/sample",
    "realtv": "bots/realtv/cmd/likesthemstrong",
}

#: Set by the runner (python3 -m arena_sdk): the bot file is being served, not run by hand.
SERVED = [False]


def guess_game(spec: str) -> str:
    """The game a bot file's source mentions, for the friendly message (no code is run)."""
    path = parse_spec(spec)[0]
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(200_000)
    except OSError:
        return "dynamite"
    # The games are HOUSE_BOTS' keys: one table to extend for a game with a typed module
    # (TestEveryGame checks that each key is a registered game).
    names = "|".join(map(re.escape, HOUSE_BOTS))
    m = re.search(r"arena_sdk(?:\.|\s+import\s+(?:\w+\s*,\s*)*)(" + names + r")\b", text)
    return m.group(1) if m else "dynamite"


def _listed(names: list[str]) -> str:
    """'a, b or c'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def not_served_message(spec: str) -> str:
    """How to play the bot file spec, for someone who ran it without the arena host."""
    game = guess_game(spec) if spec else "dynamite"
    shown = spec or "bot.py"
    return (
        f"{shown} is an arena bot: the arena host starts it and talks to it over gRPC, so it is\n"
        f"not meant to be run by hand. Play it against a house bot with, for example:\n\n"
        f"    arena play {game} {shown} {HOUSE_BOTS[game]}\n\n"
        f"(the word after 'play' is the game: {_listed(list(HOUSE_BOTS))}).\n"
        f"[{COOKIE_KEY} is not set to the arena's value: this process was not started by the arena host]\n"
    )
