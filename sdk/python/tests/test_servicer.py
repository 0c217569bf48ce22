"""BotService in-process: dispatch to the user's code, errors, seats."""

from __future__ import annotations

import pytest

from arena_sdk import Result, loader
from arena_sdk._pb.arena.v1 import bot_pb2
from arena_sdk._service import BotServicer

EXC = bot_pb2.BOT_ERROR_KIND_EXCEPTION
INVALID = bot_pb2.BOT_ERROR_KIND_INVALID_ANSWER


def servicer(write_bot, source: str, name: str) -> BotServicer:
    return BotServicer(loader.load(str(write_bot(source, name))))


def start_dynamite(s: BotServicer, match: str = "m", seat: int = 0) -> None:
    r = s.Start(bot_pb2.StartRequest(match_id=match, seat=seat, game="dynamite", players=["a", "b"],
                                     deadline_ms=1000, dynamite=dict(target_score=1000, max_rounds=2500,
                                                                     dynamite_per_player=100)), None)
    assert r.error == ""


def act(s: BotServicer, step: int, rnd: int, own: int = 0, opp: int = 0, match: str = "m",
        seat: int = 0, **kw: int) -> bot_pb2.ActResponse:
    return s.Act(bot_pb2.ActRequest(match_id=match, seat=seat, step=step, deadline_ms=500,
                                    dynamite=dict(round=rnd, last_own=own, last_opponent=opp, **kw)), None)


ECHO = """
    from arena_sdk import dynamite

    class Echo(dynamite.Bot):
        name = "echo"
        author = "tests"
        seen = []

        def start(self, setup):
            self.setup = setup

        def move(self, state):
            Echo.seen.append((self.setup.seat, state.round, list(state.rounds), state.time_left(),
                              state.own_dynamite_left, state.stake))
            return state.rounds[-1].opponent if state.rounds else "R"

        def end(self, outcome):
            Echo.seen.append(("end", outcome.result, outcome.score, len(outcome.state.rounds)))
"""


def test_dispatches_dynamite_to_the_users_move(write_bot) -> None:
    s = servicer(write_bot, ECHO, "echo_bot.py")
    d = s.Describe(bot_pb2.DescribeRequest(), None)
    assert (d.name, d.author, list(d.games)) == ("echo", "tests", ["dynamite"])
    start_dynamite(s)
    r1 = act(s, 1, 1, own_dynamite_left=100, stake=1)
    assert r1.step == 1 and r1.WhichOneof("action") == "dynamite" and r1.dynamite.move == 1  # R
    r2 = act(s, 2, 2, own=1, opp=5, own_dynamite_left=99, stake=2)  # previous: R vs W
    assert r2.step == 2 and r2.dynamite.move == 5  # echoes W
    s.End(bot_pb2.EndRequest(match_id="m", seat=0, result=bot_pb2.RESULT_WIN, score=1000,
                             dynamite=dict(round=3, last_own=5, last_opponent=5)), None)
    seen = s._bot.module.Echo.seen  # type: ignore[union-attr]
    assert seen[0][:3] == (0, 1, [])
    assert 0.4 < seen[0][3] <= 0.5  # time_left from deadline_ms=500
    assert seen[1][:3] == (0, 2, [("R", "W")]) and seen[1][4:] == (99, 2)
    assert seen[2] == ("end", Result.WIN, 1000.0, 2)


def test_each_seat_gets_its_own_instance(write_bot) -> None:
    s = servicer(write_bot, """
        from arena_sdk import dynamite

        class Count(dynamite.Bot):
            def __init__(self):
                self.n = 0

            def move(self, state):
                self.n += 1
                return "RPS"[self.n % 3]
    """, "count_bot.py")
    start_dynamite(s, "m1", 0)
    start_dynamite(s, "m1", 1)
    start_dynamite(s, "m2", 0)
    assert act(s, 1, 1, match="m1", seat=0).dynamite.move == 2  # n=1 -> P
    assert act(s, 2, 2, match="m1", seat=0).dynamite.move == 3  # n=2 -> S
    assert act(s, 1, 1, match="m1", seat=1).dynamite.move == 2  # fresh instance
    assert act(s, 1, 1, match="m2", seat=0).dynamite.move == 2


def test_exception_becomes_bot_error_with_traceback(write_bot, capsys) -> None:
    s = servicer(write_bot, """
        from arena_sdk import dynamite

        def helper(state):
            raise ValueError(f"no idea in round {state.round}")

        class Raiser(dynamite.Bot):
            def move(self, state):
                return helper(state)
    """, "raiser_bot.py")
    start_dynamite(s)
    r = act(s, 42, 3)
    assert r.step == 42
    assert r.WhichOneof("action") is None
    assert r.error.kind == EXC
    assert r.error.message == "ValueError: no idea in round 3"
    assert "raiser_bot.py" in r.error.traceback and "in helper" in r.error.traceback
    assert "_service.py" not in r.error.traceback  # the SDK's own frames are cut
    assert "no idea in round 3" in capsys.readouterr().err  # and it is in the bot's log


@pytest.mark.parametrize("answer,shown", [("X", "'X'"), ("r", "'r'"), (None, "None"), (["R"], "['R']"), (3, "3")])
def test_invalid_answer_names_the_value(write_bot, answer, shown) -> None:
    s = servicer(write_bot, f"""
        from arena_sdk import dynamite

        class Bad(dynamite.Bot):
            def move(self, state):
                return {answer!r}
    """, f"bad_bot_{abs(hash(repr(answer)))}.py")
    start_dynamite(s)
    r = act(s, 9, 1)
    assert r.step == 9
    assert r.WhichOneof("action") is None
    assert r.error.kind == INVALID
    assert shown in r.error.message and "'R', 'P', 'S', 'D', 'W'" in r.error.message


def test_unknown_seat_and_wrong_game(write_bot) -> None:
    s = servicer(write_bot, ECHO, "echo2_bot.py")
    r = act(s, 5, 1, match="nope")
    assert r.step == 5 and r.error.kind == INVALID and "no open seat" in r.error.message
    st = s.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="finger", finger={}), None)
    assert "does not play finger" in st.error and "dynamite" in st.error
    st = s.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="chess"), None)
    assert "does not know the game 'chess'" in st.error


def test_start_failure_is_reported(write_bot) -> None:
    s = servicer(write_bot, """
        from arena_sdk import dynamite

        class Broken(dynamite.Bot):
            def __init__(self):
                raise RuntimeError("cannot build")

            def move(self, state):
                return "R"
    """, "broken_bot.py")
    st = s.Start(bot_pb2.StartRequest(match_id="m", seat=0, game="dynamite", dynamite={}), None)
    assert "RuntimeError: cannot build" in st.error


def test_actstream_answers_in_order_and_echoes_steps(write_bot) -> None:
    s = servicer(write_bot, ECHO, "echo3_bot.py")
    start_dynamite(s)
    reqs = [bot_pb2.ActStreamRequest(act=bot_pb2.ActRequest(match_id="m", seat=0, step=10 + i, deadline_ms=100,
                                                            dynamite=dict(round=i, last_own=2 if i > 1 else 0,
                                                                          last_opponent=3 if i > 1 else 0)))
            for i in range(1, 5)]
    out = [(r.act.step, r.act.dynamite.move) for r in s.ActStream(iter(reqs), None)]
    assert out == [(11, 1), (12, 3), (13, 3), (14, 3)]
