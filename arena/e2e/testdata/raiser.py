"""Raises inside its move in round 5, after printing to stdout and stderr."""
import sys

from arena_sdk import dynamite


class Raiser(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        print("raiser: round", state.round)
        if state.round == 5:
            print("raiser: about to raise", file=sys.stderr)
            raise ValueError("raiser: deliberate failure in round 5")
        return "R"
