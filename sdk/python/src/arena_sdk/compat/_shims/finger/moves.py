"""The finger contest's ``moves`` module (arena_sdk seed-compatibility shim)."""

from enum import Enum


class Move(Enum):
    """A hit, by the seed's values; ``Move.SWITCH(left, right)`` returns the plain tuple."""

    LEFT_TO_RIGHT = "LEFT TO RIGHT"
    LEFT_TO_LEFT = "LEFT TO LEFT"
    RIGHT_TO_RIGHT = "RIGHT TO RIGHT"
    RIGHT_TO_LEFT = "RIGHT TO LEFT"

    @staticmethod
    def SWITCH(left: int, right: int) -> tuple[int, int]:
        return (left, right)
