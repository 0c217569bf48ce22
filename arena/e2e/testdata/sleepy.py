"""Sleeps past any deadline in round 3."""
import time

from arena_sdk import dynamite


class Sleepy(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            time.sleep(3600)
        return "P"
