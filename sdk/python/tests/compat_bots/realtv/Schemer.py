# A realTV script using `from Game import *`, class-level state shared by its 11 instances,
# and every field of the Context.
import re
from Game import *
from tv_helper import weakest_other


class Schemer(Player):
    instances = {}          # shared by the 11 instances
    votes_cast = 0
    phases_seen = set()

    def __init__(self, name, strength):
        Player.__init__(self, name, strength)
        assert name == "STR=%d" % strength, name
        assert self.name == "Schemer"
        Schemer.instances[strength] = self

    def getSteemUser(self):
        return "@schemer"

    def _check(self, context):
        assert re.fullmatch(r"[A-Z0-9]{10}", self.id) or self.id, self.id
        assert len(Schemer.instances) == len(Const.INSTANCES_STRENGTH), len(Schemer.instances)
        assert Const.PLAYERS_PER_ISLAND == 12 and Const.DIFFICULTY_A == 7 and Const.DIFFICULTY_B == -3
        assert isinstance(context.islandIndex, int)
        g = context.game
        assert g.totalHumans >= 11 and g.totalBots >= 0 and g.phaseIndex >= 0, vars(g)
        Schemer.phases_seen.add(g.phaseIndex)
        assert self.id in context.activePlayers, (self.id, list(context.activePlayers))
        me = context.activePlayers[self.id]
        # me.name is the class name, as the seed says.
        assert me.strength == self.strength and me.name == "Schemer", me.name
        assert me.score == self.score or me.score <= self.score, (me.score, self.score)
        for group in (context.activePlayers, context.betrayers, context.eliminatedPlayers, context.currentTies):
            for pid, p in group.items():
                assert p.id == pid and isinstance(p.name, str) and 0 <= p.strength <= 10 and p.score >= 0
                for first, tie in p.previousMoves:
                    assert first is None or hasattr(first, "id")
                    assert tie is None or hasattr(tie, "id")
        print(f"{self.id} s={self.strength} score={self.score} phase={g.phaseIndex} "
              f"active={len(context.activePlayers)} betrayers={len(context.betrayers)}")

    def voteForElimination(self, context):
        self._check(context)
        Schemer.votes_cast += 1
        target = weakest_other(context.activePlayers, self.id)
        # Vote with a Player object when the target is one of our own instances.
        for inst in Schemer.instances.values():
            if target is not None and inst.id == target.id:
                return inst
        return target

    def voteForTie(self, context):
        assert context.currentTies, "a tie vote without ties"
        return weakest_other(context.currentTies, self.id) or list(context.currentTies.values())[0]
