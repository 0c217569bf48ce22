"""The finger contest's ``generic_player`` module (arena_sdk seed-compatibility shim).

The arena fills the hidden ``_arena`` view before every ``move()`` call.
"""

import logging
from typing import Any

from moves import Move

#: The contest's module-level logger; bots log through it (their lines go to the bot's log).
logger = logging.getLogger("generic_player")


class _View:
    __slots__ = ("my_left", "my_right", "opponent_left", "opponent_right", "history", "current_round",
                 "starting_player")

    def __init__(self) -> None:
        self.my_left = self.my_right = self.opponent_left = self.opponent_right = 1
        self.history: list[tuple[str, Any]] = []
        self.current_round = 0
        self.starting_player = ""


class GenericPlayer:
    def __init__(self, name: Any) -> None:
        self.name = name
        self._arena = _View()

    def _view(self) -> _View:
        v: _View | None = self.__dict__.get("_arena")
        if v is None:  # a subclass __init__ that did not call ours
            v = self.__dict__["_arena"] = _View()
        return v

    def get_my_left(self) -> int:
        return self._view().my_left

    def get_my_right(self) -> int:
        return self._view().my_right

    def get_opponent_left(self) -> int:
        return self._view().opponent_left

    def get_opponent_right(self) -> int:
        return self._view().opponent_right

    def get_history(self) -> list[tuple[str, Any]]:
        """Moves of the current game, oldest first: (player name, Move member or (left, right))."""
        return self._view().history

    def get_current_round(self) -> int:
        """Moves already played in the current game."""
        return self._view().current_round

    def get_starting_player(self) -> str:
        """Name of the player who started the current game (this player's own name if it did)."""
        return self._view().starting_player

    def move(self) -> Any:
        raise NotImplementedError("CustomPlayer must implement move(self)")

    def __str__(self) -> str:
        return str(self.name)


__all__ = ["GenericPlayer", "Move", "logger"]
