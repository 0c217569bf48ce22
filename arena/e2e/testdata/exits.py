"""Exits the whole process in round 4."""
import os
import sys

from arena_sdk import dynamite


class Exits(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 4:
            print("exits: leaving now", file=sys.stderr, flush=True)
            os._exit(7)
        return "S"
