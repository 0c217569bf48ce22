"""The realTV contest's ``Game`` package (arena_sdk seed-compatibility shim)."""

from Game.Const import Const
from Game.Context import Context, GameContext, PlayerContext
from Game.Island import Island
from Game.Player import Player

__all__ = ["Const", "Context", "GameContext", "Island", "PlayerContext", "Player"]
