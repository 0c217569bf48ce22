"""The example bots in examples/python load and answer a legal move of their game."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena_sdk import loader
from arena_sdk._pb.arena.v1 import bot_pb2
from arena_sdk._service import BotServicer

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "python"

START = {
    "dynamite": dict(dynamite=dict(target_score=1000, max_rounds=2500, dynamite_per_player=100)),
    "finger": dict(finger=dict(games=2, max_rounds=5000, own_name="me", opponent_name="you")),
    "bidding": dict(bidding=dict(games=2, start_money=100, max_rounds=10, own_name="me", opponent_name="you")),
    "auction": dict(auction=dict(artists_num=2, required_count=2, auction_items=["t0", "t1", "t1"], player_count=2,
                                 player_names=["me", "you"], own_name="me", start_money=100)),
    "realtv": dict(realtv=dict(id="ME00000000", name="Loyal", strength=3, phases=100, players_per_island=12)),
}

OBSERVE = {
    "dynamite": dict(dynamite=dict(round=2, last_own=1, last_opponent=2, own_dynamite_left=100, stake=2)),
    "finger": dict(finger=dict(game=1, new_game=True, round=1, own_left=1, own_right=4, opponent_left=1,
                               opponent_right=1)),
    "bidding": dict(bidding=dict(game=1, new_game=True, round=1, player=1, own_money=100, opponent_money=100,
                                 start_money=100, bottle_position=5)),
    "auction": dict(auction=dict(item_index=1, item="t1", bid_item="t0", bid_winner="you", winning_bid=10,
                                 wealth_table={"me": 100, "you": 90}, own_money=100)),
    "realtv": dict(realtv=dict(decision=1, own_id="ME00000000", active_players={
        "ME00000000": dict(id="ME00000000", strength=3), "AA00000000": dict(id="AA00000000", strength=1),
        "BB00000000": dict(id="BB00000000", strength=8)})),
}


@pytest.mark.parametrize("game", sorted(START))
def test_example_plays(game: str) -> None:
    path = EXAMPLES / game / "bot.py"
    assert path.is_file(), f"missing example {path}"
    assert (EXAMPLES / game / "README.md").is_file()
    s = BotServicer(loader.load(str(path)))
    assert list(s.Describe(bot_pb2.DescribeRequest(), None).games) == [game]
    assert s.Start(bot_pb2.StartRequest(match_id="m", seat=0, game=game, deadline_ms=1000, **START[game]),
                   None).error == ""
    r = s.Act(bot_pb2.ActRequest(match_id="m", seat=0, step=1, deadline_ms=1000, **OBSERVE[game]), None)
    assert not r.HasField("error"), r.error
    assert r.WhichOneof("action") == game
    answer = getattr(r, game)
    if game == "finger":
        assert answer.move in (3, 4)  # right (4 fingers) hits a 1-finger hand: knocked out
    elif game == "bidding":
        assert 1 <= answer.bid <= 100
    elif game == "auction":
        assert answer.bid == 50  # needs 2 works of t1 with 100 to spend
    elif game == "realtv":
        assert answer.vote_id == "AA00000000"
