# Seed-style class bot: make_move(self, gamestate); the imported Base must not be taken.
from dyn_helper import Base, count_dynamite


class DynamiteBot(Base):
    def __init__(self):
        self.calls = 0

    def make_move(self, gamestate):
        assert list(gamestate) == ["rounds"], gamestate.keys()
        rounds = gamestate["rounds"]
        assert len(rounds) == self.calls, (len(rounds), self.calls)
        self.calls += 1
        print("class bot", self.calls)
        if count_dynamite(rounds, "p1") < 100:
            return "D"
        return self.pick(self.calls)
