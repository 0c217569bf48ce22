"""The finger contest's ``game`` module (arena_sdk seed-compatibility shim).

Bot files import it; in the arena the host runs the games, so ``Game`` only keeps its players.
"""


from typing import Any


class Game:
    def __init__(self, *players: Any, **kwargs: Any) -> None:
        self.players = list(players)

    def play(self, *args: Any, **kwargs: Any) -> None:
        raise RuntimeError("in the arena the host plays the games: use `arena play finger <bot.py> <opponent>`")
