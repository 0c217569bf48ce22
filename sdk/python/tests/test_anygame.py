"""The generic path in-process: a bot with no per-game code plays any game by name."""

from __future__ import annotations

from arena_sdk import _wire, loader
from arena_sdk._pb.arena.v1 import bot_pb2
from arena_sdk._service import BotServicer

ANY = """
    from arena_sdk import anygame

    class First(anygame.Bot):
        name = "first"
        seen = []

        def act(self, state):
            First.seen.append((state.game, state.setup, dict(state.observation), state.deadline > 0))
            if state.game == "dynamite":
                return {"move": "DYNAMITE_MOVE_WATER"}
            return '{"bid": 3}' if state.game == "bidding" else [1]
"""


def test_plays_every_game_by_name(write_bot) -> None:
    s = BotServicer(loader.load(str(write_bot(ANY, "first_bot.py"))))
    assert list(s.Describe(bot_pb2.DescribeRequest(), None).games) == sorted(_wire.GAMES)
    for game, setup in (("dynamite", dict(target_score=7)), ("bidding", {}), ("realtv", dict(id="x"))):
        r = s.Start(bot_pb2.StartRequest(match_id=game, seat=1, game=game, deadline_ms=500, **{game: setup}), None)
        assert r.error == ""
    r = s.Act(bot_pb2.ActRequest(match_id="dynamite", seat=1, step=4, deadline_ms=500,
                                 dynamite=dict(round=3, last_own=4)), None)
    assert r.step == 4 and r.WhichOneof("action") == "dynamite" and r.dynamite.move == 5
    game, setup, obs, timed = bot_first_seen()
    assert (game, setup.fields["target_score"], setup.seat, timed) == ("dynamite", 7, 1, True)
    assert obs == dict(round=3, last_own="DYNAMITE_MOVE_DYNAMITE", last_opponent="DYNAMITE_MOVE_UNSPECIFIED",
                       own_score=0, opponent_score=0, own_dynamite_left=0, opponent_dynamite_left=0, stake=0)
    r = s.Act(bot_pb2.ActRequest(match_id="bidding", seat=1, step=1, bidding=dict(round=1)), None)
    assert r.WhichOneof("action") == "bidding" and r.bidding.bid == 3
    # An answer that is not an action object is an invalid answer, with no action.
    r = s.Act(bot_pb2.ActRequest(match_id="realtv", seat=1, step=1,
                                 realtv=dict(active_players={"a": dict(name="A", previous_moves=[dict(tie_vote="q")])})), None)
    assert r.WhichOneof("action") is None and r.error.kind == bot_pb2.BOT_ERROR_KIND_INVALID_ANSWER
    assert "not a RealtvAction" in r.error.message
    obs = bot_first_seen(-1)[2]
    assert obs["active_players"]["a"]["previous_moves"] == [dict(first_vote="", tie_vote="q")]
    assert obs["game"] is None and obs["decision"] == "REALTV_DECISION_UNSPECIFIED"


def bot_first_seen(i: int = 0):  # type: ignore[no-untyped-def]
    import sys
    return sys.modules["first_bot"].First.seen[i]


def test_a_game_outside_the_protocol_is_refused(write_bot) -> None:
    src = ANY.replace('name = "first"', 'name = "first"\n        games = ("dynamite", "chess")')
    try:
        loader.load(str(write_bot(src, "chess_bot.py")))
    except loader.LoadError as e:
        assert "chess" in str(e) and "dynamite" in str(e)
    else:
        raise AssertionError("a bot naming a game outside the protocol loaded")
