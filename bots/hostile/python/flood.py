"""Hostile: floods stdout and stderr from round 3 on."""
import os

from arena_sdk import dynamite


class Flood(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            chunk = b"flood " * 10000
            while True:
                os.write(1, chunk)
                os.write(2, chunk)
        return "P"
