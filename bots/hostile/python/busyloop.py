"""Hostile: spins forever in round 3."""
from arena_sdk import dynamite


class BusyLoop(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            while True:
                pass
        return "P"
