"""Uses 80 % of each move's budget in CPU time (this process's, time.process_time), then plays
rock: under the CPU clock it must never time out, however busy the machine is."""

import time

from arena_sdk import dynamite


class Spend(dynamite.Bot):
    name = "spend80"

    def move(self, state: dynamite.State) -> str:
        end = time.process_time() + 0.8 * state.budget
        while time.process_time() < end:
            pass
        return dynamite.ROCK
