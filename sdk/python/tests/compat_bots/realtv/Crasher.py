from Game import *


class Crasher(Player):
    def getSteemUser(self):
        return "@crash"

    def voteForElimination(self, context):
        if self.strength == 3:
            raise ZeroDivisionError("realtv script failure")
        return min(context.activePlayers.values(), key=lambda p: p.strength)

    def voteForTie(self, context):
        return input("tie? ")
