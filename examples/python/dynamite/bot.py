"""A small dynamite bot: uses its dynamite while the stake is high, otherwise beats the
opponent's favourite throw."""

from collections import Counter

from arena_sdk import dynamite

BEATS = {"R": "P", "P": "S", "S": "R", "D": "W", "W": "R"}


class Frequency(dynamite.Bot):
    name = "frequency"

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def move(self, state: dynamite.State) -> str:
        if state.rounds:
            self.seen[state.rounds[-1].opponent] += 1
        if state.own_dynamite_left and state.stake >= 2:
            return dynamite.DYNAMITE
        if not self.seen:
            return dynamite.ROCK
        favourite = self.seen.most_common(1)[0][0]
        return BEATS[favourite]
