# Seed-style function bot: make_move(rounds), prints a lot, uses a helper module.
from dyn_helper import count_dynamite, MOVES

seen = {"calls": 0}


def make_move(rounds):
    seen["calls"] += 1
    assert isinstance(rounds, list), type(rounds)
    for r in rounds[-1:]:
        assert set(r) == {"p1", "p2"} and r["p1"] in "RPSDW" and r["p2"] in "RPSDW", r
    print("x" * 200)
    print("function bot: round", len(rounds) + 1)
    if count_dynamite(rounds, "p1") < 100 and len(rounds) % 3 == 0:
        return "D"
    if rounds and rounds[-1]["p2"] == "D":
        return "W"
    return MOVES[len(rounds) % 3]
