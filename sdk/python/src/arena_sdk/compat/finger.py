"""Finger bots as the contest wrote them: ``class CustomPlayer(GenericPlayer)`` with ``move(self)``
in a ``custom_player.py`` that imports ``generic_player``, ``moves``, ``game`` and ``test_player``.

Each seat gets a new instance, built with the name of the file's module-level instance
(``custom_player = CustomPlayer("black")``) or else the class name; before every ``move()`` its
getters are pointed at the arena's state of the current game.
"""

from __future__ import annotations

import enum
from typing import Any, cast

from arena_sdk import finger
from arena_sdk._common import InvalidAnswer, describe_value


def _seed_move(m: finger.FingerMove) -> Any:
    import moves  # the shim, on sys.path inside a finger-style bot process

    if isinstance(m, finger.Hit):
        return moves.Move[m.name]
    return (m[0], m[1])


def to_native(value: Any) -> finger.FingerMove:
    """The seed's answer (a Move member of any Move enum, a (left, right) tuple, or a name) as a
    native move. Raises InvalidAnswer."""
    if isinstance(value, enum.Enum) and not isinstance(value, finger.Hit):
        hit = finger.Hit.__members__.get(value.name)
        if hit is None and isinstance(value.value, str):
            hit = finger.Hit.__members__.get(value.value.replace(" ", "_"))
        if hit is None:
            raise InvalidAnswer(f"move() returned {describe_value(value)}, not a Move")
        return hit
    if isinstance(value, list) and len(value) == 2:
        value = tuple(value)
    return finger.to_move(value)


class PlayerBot(finger.Bot):
    """Drives one CustomPlayer instance."""

    def __init__(self, cls: type, name: str) -> None:
        self.player = cls(name)
        self._game = -1
        self._seen = 0

    def move(self, state: finger.State) -> finger.FingerMove:
        p = self.player
        v = p._view()
        if state.game != self._game:
            self._game = state.game
            v.history = []
            self._seen = 0
        hist = state.history
        for e in hist[self._seen:]:
            v.history.append((p.name if e.own else e.player, _seed_move(e.move)))
        self._seen = len(hist)
        v.my_left, v.my_right = state.own_left, state.own_right
        v.opponent_left, v.opponent_right = state.opponent_left, state.opponent_right
        v.current_round = state.round - 1
        # Bots compare it with self.name, which the arena does not know: map it.
        v.starting_player = p.name if state.started else state.opponent_name
        return to_native(p.move())


def instance_name(module: Any, cls: type) -> str:
    """Name given to the file's module-level instance of cls, else the class name."""
    for obj in vars(module).values():
        if type(obj) is cls and isinstance(getattr(obj, "name", None), str):
            return cast(str, getattr(obj, "name"))
    return cls.__name__
