"""Game.Player: the base class of a realTV script (arena_sdk seed-compatibility shim)."""

import random
import string


def _new_id():
    return "".join(random.choice(string.ascii_uppercase + string.digits) for _ in range(10))


class Player:
    def __init__(self, name, strength):
        self.id = _new_id()               # replaced by the arena's id of this instance
        self.name = self.__class__.__name__
        self.score = 0
        self.strength = strength

    def getSteemUser(self):
        return ""

    def voteForElimination(self, context):
        raise NotImplementedError("override voteForElimination(self, context)")

    def voteForTie(self, context):
        raise NotImplementedError("override voteForTie(self, context)")

    def __repr__(self):
        return f"{self.name}({self.id}, strength={self.strength}, score={self.score})"
