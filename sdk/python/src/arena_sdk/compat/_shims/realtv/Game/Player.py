"""Game.Player: the base class of a realTV script (arena_sdk seed-compatibility shim).

It has every public name of the original's ``Player`` (steemian/realTV, project/Game/Player.py, in
its versions of the contest): ``id``, ``name``, ``score``, ``strength``, ``decision``,
``tieDecision``, ``shortDescribe()``, ``longDescribe()``, ``describe()``, the three methods a
script overrides, and the engine's own ``decide``, ``decideVote``, ``decideTie`` and
``decisionCheck`` (in the arena the host judges the votes; these only mirror what they did).
"""

import random
import string
from typing import Any

from Game.Const import Const


def _new_id() -> str:
    alphabet = string.ascii_uppercase + string.digits
    return "".join(random.choice(alphabet) for _ in range(Const.RANDOM_ID_LEN))


class Player:
    def __init__(self, name: Any, strength: int) -> None:
        self.id = _new_id()               # replaced by the arena's id of this instance
        self._name = name
        self.name = self.__class__.__name__
        self.score = Const.STARTING_SCORE
        self.strength = strength
        self.decision: Any = None
        self.tieDecision: Any = None

    def longDescribe(self) -> str:
        return "[{} {} ({}) S={} [{:.0f} pts]]".format(self._name, self.id, type(self).__name__, self.strength, self.score)

    def shortDescribe(self) -> str:
        return "{}-{}_{}".format(self.id, self.strength, type(self).__name__)

    def describe(self) -> str:
        return "[{} S={}]".format(self.longDescribe(), self.score)

    def getSteemUser(self) -> str:
        return ""

    def voteForElimination(self, context: Any) -> Any:
        raise NotImplementedError("override voteForElimination(self, context)")

    def voteForTie(self, context: Any) -> Any:
        raise NotImplementedError("override voteForTie(self, context)")

    def decisionCheck(self, allowedValues: Any, decisionAsPlayerDescriptor: Any, defaultValue: Any) -> Any:
        """The allowed entry a vote names by its id, or defaultValue."""
        vote_id = getattr(decisionAsPlayerDescriptor, "id", None)
        if vote_id is not None and vote_id in allowedValues:
            return allowedValues[vote_id]
        return defaultValue

    def decide(self, context: Any) -> Any:
        self.decision = self.voteForElimination(context)
        return self.decision

    def decideVote(self, context: Any) -> Any:
        self.decision = self.decisionCheck(context.activePlayers, self.voteForElimination(context), self)
        return self.decision

    def decideTie(self, context: Any) -> Any:
        self.tieDecision = self.decisionCheck(context.currentTies, self.voteForTie(context), None)
        return self.tieDecision

    def __repr__(self) -> str:
        return f"{self.name}({self.id}, strength={self.strength}, score={self.score})"
