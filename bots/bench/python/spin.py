"""Busy-loops forever from round 3: the CPU clock must stop it near its budget and charge it."""

from arena_sdk import dynamite


class Spin(dynamite.Bot):
    name = "spin"

    def move(self, state: dynamite.State) -> str:
        if len(state.rounds) + 1 >= 3:
            while True:
                pass
        return dynamite.ROCK
