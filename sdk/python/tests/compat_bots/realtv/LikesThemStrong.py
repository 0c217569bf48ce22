from Game.Const import Const
from Game.Player import Player


class LikesThemStrong (Player):     # Always votes for the weakest (including itself)

    def getSteemUser(self):
        return ""

    def voteForElimination(self, context):
        return min(context.activePlayers.values(), key=lambda p: p.strength)

    def voteForTie(self, context):
        return min(context.currentTies.values(), key=lambda p: p.strength)
