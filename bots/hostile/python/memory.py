"""Hostile: grabs memory without end in round 3."""
from arena_sdk import dynamite

_keep = []


class Memory(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            while True:
                _keep.append(bytearray(16 << 20))
        return "P"
