"""Game.Island (arena_sdk seed-compatibility shim): the original engine's island class, which
``from Game import *`` brings into a bot's file. In the arena the host runs the islands."""


from typing import Any


class Island:
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("in the arena the host runs the islands: use `arena play realtv <bot.py> ...`")
