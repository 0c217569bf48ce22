# A Real TV script using the parts of the original engine real contest scripts used: the
# describe methods of Player, PlayerContext and Context, and Const's engine constants.
from Game import *
from Game.Const import Const
from Game.Player import Player


class Describer(Player):
    seen = 0

    def getSteemUser(self):
        return "@describer"

    def voteForElimination(self, context):
        assert self.score >= Const.STARTING_SCORE
        assert len(self.id) >= 1 and Const.RANDOM_ID_LEN > 0
        assert Const.MIN_BOTS_PER_ISLAND >= 0 and Const.MAX_HUMANS_PER_ISLAND >= 1 and Const.NB_RUNS_FOR_STATS >= 1
        others = [p for p in context.activePlayers.values() if p.id != self.id]
        target = min(others, key=lambda p: p.strength)
        Describer.seen += 1
        if Describer.seen <= 3:
            print("describer:", self.shortDescribe(), "votes", target.shortDescribe(), target.longDescribe())
            print(context.describe().splitlines()[0])
        return target

    def voteForTie(self, context):
        ties = [p for p in context.currentTies.values() if p.id != self.id]
        return min(ties, key=lambda p: p.strength) if ties else list(context.currentTies.values())[0]
