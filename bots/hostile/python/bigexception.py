"""Hostile: from round 3 on raises an exception whose message is 1.4 MB."""
from arena_sdk import dynamite


class BigException(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round >= 3:
            raise ValueError("head " + "x" * 1_400_000 + " tail")
        return "P"
