"""The finger contest's ``test_player`` module (arena_sdk seed-compatibility shim)."""

import random
from typing import Any

from generic_player import GenericPlayer
from moves import Move


class TestPlayer(GenericPlayer):
    """Plays a random legal move."""

    def move(self) -> Any:
        l, r = self.get_my_left(), self.get_my_right()
        ol, orr = self.get_opponent_left(), self.get_opponent_right()
        hits = [m for m, a, t in ((Move.LEFT_TO_LEFT, l, ol), (Move.LEFT_TO_RIGHT, l, orr),
                                  (Move.RIGHT_TO_LEFT, r, ol), (Move.RIGHT_TO_RIGHT, r, orr)) if a and t]
        if hits:
            return random.choice(hits)
        total = l + r
        switches = [(a, total - a) for a in range(6)
                    if 0 <= total - a <= 5 and (a, total - a) not in ((l, r), (r, l))]
        return Move.SWITCH(*random.choice(switches))


test_player = TestPlayer("test")
