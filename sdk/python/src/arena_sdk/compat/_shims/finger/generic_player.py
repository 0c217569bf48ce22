"""The finger contest's ``generic_player`` module (arena_sdk seed-compatibility shim).

The arena fills the hidden ``_arena`` view before every ``move()`` call.
"""

import logging

from moves import Move

#: The contest's module-level logger; bots log through it (their lines go to the bot's log).
logger = logging.getLogger("generic_player")


class _View:
    __slots__ = ("my_left", "my_right", "opponent_left", "opponent_right", "history", "current_round",
                 "starting_player")

    def __init__(self):
        self.my_left = self.my_right = self.opponent_left = self.opponent_right = 1
        self.history = []
        self.current_round = 0
        self.starting_player = ""


class GenericPlayer:
    def __init__(self, name):
        self.name = name
        self._arena = _View()

    def _view(self):
        v = self.__dict__.get("_arena")
        if v is None:  # a subclass __init__ that did not call ours
            v = self.__dict__["_arena"] = _View()
        return v

    def get_my_left(self):
        return self._view().my_left

    def get_my_right(self):
        return self._view().my_right

    def get_opponent_left(self):
        return self._view().opponent_left

    def get_opponent_right(self):
        return self._view().opponent_right

    def get_history(self):
        """Moves of the current game, oldest first: (player name, Move member or (left, right))."""
        return self._view().history

    def get_current_round(self):
        """Moves already played in the current game."""
        return self._view().current_round

    def get_starting_player(self):
        """Name of the player who started the current game (this player's own name if it did)."""
        return self._view().starting_player

    def move(self):
        raise NotImplementedError("CustomPlayer must implement move(self)")

    def __str__(self):
        return str(self.name)


__all__ = ["GenericPlayer", "Move", "logger"]
