"""Game.Context: the seed's Context, GameContext and PlayerContext (arena_sdk shim)."""


class PlayerContext:
    def __init__(self, id, name, strength, score, previousMoves=None):
        self.id = id                      # a unique string identifier for this instance
        self.name = name                  # classname this player is implementing
        self.strength = strength
        self.score = score                # as of the beginning of the day
        self.previousMoves = previousMoves if previousMoves is not None else []  # [(first, tie)]

    def __repr__(self):
        return f"PlayerContext({self.id}, {self.name}, strength={self.strength}, score={self.score})"


class GameContext:
    def __init__(self, totalBots=0, totalHumans=0, phaseIndex=0):
        self.totalBots = totalBots
        self.totalHumans = totalHumans
        self.phaseIndex = phaseIndex


class Context:
    def __init__(self):
        self.islandIndex = 0
        self.game = GameContext()
        self.activePlayers = {}
        self.betrayers = {}
        self.eliminatedPlayers = {}
        self.currentTies = {}
