"""Game.Context: the seed's Context, GameContext and PlayerContext (arena_sdk shim).

Every public name of the original's module (steemian/realTV, project/Game/Context.py) is here:
``PlayerContext`` with ``shortDescribe()``, ``longDescribe()`` (and the earlier ``describe()``),
``GameContext``, ``historyContext`` and ``Context`` with ``describe()``, ``update()`` and
``registerTies()``. The arena fills them in before every vote.
"""

from typing import Any


class PlayerContext:
    def __init__(self, id: str, name: str, strength: int, score: float,
                 previousMoves: list[tuple[Any, Any]] | None = None) -> None:
        self.id = id                      # a unique string identifier for this instance
        self.name = name                  # classname this player is implementing
        self.strength = strength
        self.score = score                # as of the beginning of the day
        self.previousMoves = previousMoves if previousMoves is not None else []  # [(first, tie)]

    def shortDescribe(self) -> str:
        return "{}-{}_{}".format(self.id, self.strength, self.name)

    def longDescribe(self) -> str:
        return "[{} ({}) S={} [{:.0f} pts]]".format(self.id, self.name, self.strength, self.score)

    def describe(self) -> str:
        return "[{} #{} STR={}]".format(self.name, self.id, self.strength)

    def __repr__(self) -> str:
        return f"PlayerContext({self.id}, {self.name}, strength={self.strength}, score={self.score})"


class GameContext:
    def __init__(self, phaseIndex: int = 0, totalBots: int = 0, totalHumans: int = 0) -> None:
        self.totalBots = totalBots
        self.totalHumans = totalHumans
        self.phaseIndex = phaseIndex


class historyContext(object):
    def __init__(self) -> None:
        self.playerActions: dict[Any, Any] = {}


def _contexts(players: Any) -> dict[str, PlayerContext]:
    if isinstance(players, dict):
        players = players.values()
    out: dict[str, PlayerContext] = {}
    for p in players:
        if isinstance(p, PlayerContext):
            out[p.id] = p
        else:
            out[p.id] = PlayerContext(p.id, type(p).__name__, p.strength, getattr(p, "score", 0))
    return out


class Context:
    def __init__(self, island: Any = None, gameContext: GameContext | None = None) -> None:
        self.islandIndex = getattr(island, "islandIndex", 0)
        self.game = gameContext if gameContext is not None else GameContext()
        self.history: list[Any] = []
        self.activePlayers: dict[str, PlayerContext] = {}
        self.betrayers: dict[str, PlayerContext] = {}
        self.eliminatedPlayers: dict[str, PlayerContext] = {}
        self.currentTies: dict[str, PlayerContext] = {}
        if island is not None:
            self.update(island, None)

    def update(self, island: Any, lastTurnHistory: Any) -> None:
        """Refills the players from an island-like object (activePlayers, betrayers and
        eliminatedPlayers of Player objects); in the arena the host does this."""
        if lastTurnHistory is not None:
            self.history.append(lastTurnHistory)
        self.activePlayers = _contexts(getattr(island, "activePlayers", {}))
        self.betrayers = _contexts(getattr(island, "betrayers", {}))
        self.eliminatedPlayers = _contexts(getattr(island, "eliminatedPlayers", {}))
        self.currentTies = {}

    def registerTies(self, ties: Any) -> None:
        self.currentTies = {pc.id: pc for pc in ties}

    def describe(self) -> str:
        def block(title: str, players: dict[str, PlayerContext]) -> str:
            lines = "\n    ".join(p.longDescribe() for p in players.values())
            return "  {} ({})\n    {}".format(title, len(players), lines)

        return "CONTEXT ({}/{}/{})\n{}\n{}\n{}".format(
            len(self.activePlayers), len(self.betrayers), len(self.eliminatedPlayers),
            block("ACTIVE", self.activePlayers), block("ELIMINATED", self.eliminatedPlayers),
            block("BETRAYERS", self.betrayers))
