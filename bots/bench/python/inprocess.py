"""The ceiling a user of the original contest harness compares with: two instances of one
Python dynamite bot played against each other in this process by a plain loop, as the
original runner did (no processes, no gRPC), with the SDK's own State objects.

Usage: python inprocess.py BOT.py ROUNDS MATCHES; prints the median seconds per match.
"""

import importlib.util
import statistics
import sys
import time

from arena_sdk import dynamite

BEATS = {("R", "S"), ("S", "P"), ("P", "R"), ("D", "R"), ("D", "P"), ("D", "S"),
         ("W", "D"), ("R", "W"), ("P", "W"), ("S", "W")}


def bot_class(path: str) -> type:
    spec = importlib.util.spec_from_file_location("bench_bot", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for obj in vars(module).values():
        if isinstance(obj, type) and issubclass(obj, dynamite.Bot) and obj.__module__ == module.__name__:
            return obj
    raise SystemExit(f"{path}: no dynamite.Bot subclass")


def play(cls: type, rounds: int) -> None:
    bots = [cls(), cls()]
    states = []
    for seat in (0, 1):
        setup = dynamite.Setup(match_id="in-process", seat=seat, players=("a", "b"), deadline=1.0, clock=0.0,
                               target_score=10**9, max_rounds=rounds, dynamite_per_player=100)
        bots[seat].start(setup)
        states.append(dynamite.State(setup))
    scores, stake = [0, 0], 1
    for n in range(1, rounds + 1):
        moves = []
        for seat in (0, 1):
            st = states[seat]
            st.round, st.stake = n, stake
            moves.append(bots[seat].move(st))
        a, b = moves
        if (a, b) in BEATS:
            scores[0] += stake
            stake = 1
        elif (b, a) in BEATS:
            scores[1] += stake
            stake = 1
        else:
            stake += 1
        for seat, (own, opp) in enumerate(((a, b), (b, a))):
            st = states[seat]
            st.rounds.append(dynamite.Round(own, opp))
            st.own_score, st.opponent_score = scores[seat], scores[1 - seat]
            st.own_dynamite_left -= own == "D"
            st.opponent_dynamite_left -= opp == "D"


def main() -> None:
    path, rounds, matches = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    cls = bot_class(path)
    took = []
    for _ in range(matches):
        t0 = time.perf_counter()
        play(cls, rounds)
        took.append(time.perf_counter() - t0)
    print(f"{statistics.median(took):.6f}")


if __name__ == "__main__":
    main()
