"""Each game's seat: full history rebuilt from per-move deltas, answers checked and encoded."""

from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from arena_sdk import auction, bidding, dynamite, finger, realtv
from arena_sdk._common import InvalidAnswer
from arena_sdk._pb.arena.v1 import bot_pb2


class Recorder:
    """A player of any game that records a copy of what it saw and answers from a script."""

    def __init__(self, answer: Callable[[Any], Any]) -> None:
        self.answer = answer
        self.seen: list[Any] = []
        self.setup: Any = None
        self.outcome: Any = None

    def start(self, setup: Any) -> None:
        self.setup = setup

    def _see(self, state: Any) -> Any:
        self.seen.append({k: copy.deepcopy(getattr(state, k)) for k in type(state).__slots__ if k != "setup"})
        return self.answer(state)

    move = bid = vote_for_elimination = vote_for_tie = _see

    def end(self, outcome: Any) -> None:
        self.outcome = outcome


def act(seat: Any, step: int, **obs: Any) -> bot_pb2.ActResponse:
    resp = bot_pb2.ActResponse(step=step)
    seat.act(bot_pb2.ActRequest(match_id="m", seat=0, step=step, deadline_ms=1000, clock_remaining_ms=2500,
                                **obs), resp, 0.0)
    return resp


# -- the clock ------------------------------------------------------------------------------


def test_clock_shows_the_cpu_budget_bank_and_wall_cap() -> None:
    bot = Recorder(lambda s: "R")
    seat = dynamite._Seat(bot, bot_pb2.StartRequest(match_id="m", seat=0, players=["a", "b"], deadline_ms=50,
                                                    dynamite=dict(target_score=1000, max_rounds=2500,
                                                                  dynamite_per_player=100)))
    resp = bot_pb2.ActResponse(step=1)
    seat.act(bot_pb2.ActRequest(match_id="m", seat=0, step=1, deadline_ms=50, clock_mode=bot_pb2.CLOCK_MODE_CPU,
                                budget_us=50_500, bank_remaining_us=2_000, wall_cap_ms=151,
                                dynamite=dict(round=1, stake=1)), resp, 0.0)
    st = seat.state
    assert (st.cpu_clock, st.budget, st.bank_remaining, st.wall_cap) == (True, 0.0505, 0.002, 0.151)
    assert 0 <= st.cpu_used() < 1
    # An older host sends only deadline_ms: it is the budget and the wall cap, on wall time.
    act(seat, 2, dynamite=dict(round=2, last_own=1, last_opponent=1, stake=2))
    assert (st.cpu_clock, st.budget, st.bank_remaining, st.wall_cap) == (False, 1.0, 0.0, 1.0)


# -- dynamite ---------------------------------------------------------------------------------


def test_dynamite_rebuilds_rounds_and_seed_view() -> None:
    bot = Recorder(lambda s: "D")
    seat = dynamite._Seat(bot, bot_pb2.StartRequest(match_id="m", seat=1, players=["a", "b"], deadline_ms=1000,
                                                    dynamite=dict(target_score=1000, max_rounds=2500,
                                                                  dynamite_per_player=100)))
    assert bot.setup.seat == 1 and bot.setup.players == ("a", "b") and bot.setup.dynamite_per_player == 100
    moves = [(4, 5), (1, 3), (2, 2)]  # D/W, R/S, P/P
    act(seat, 1, dynamite=dict(round=1, stake=1))
    for i, (own, opp) in enumerate(moves, start=2):
        r = act(seat, i, dynamite=dict(round=i, last_own=own, last_opponent=opp, own_score=i, stake=i))
        assert r.dynamite.move == 4
    # A repeated request does not duplicate the round.
    act(seat, 9, dynamite=dict(round=4, last_own=2, last_opponent=2))
    st = seat.state
    assert st.rounds == [("D", "W"), ("R", "S"), ("P", "P")]
    assert st.rounds[0].own == "D" and st.rounds[0].opponent == "W" and st.rounds[1].p1 == "R"
    assert st.as_seed_rounds() == [{"p1": "D", "p2": "W"}, {"p1": "R", "p2": "S"}, {"p1": "P", "p2": "P"}]
    assert st.as_seed_gamestate() == {"rounds": st.as_seed_rounds()}
    assert st.as_seed_rounds() is st.as_seed_rounds()  # built incrementally, not per call
    assert bot.seen[1]["rounds"] == [("D", "W")] and bot.seen[0]["rounds"] == []
    assert st.clock_remaining == 2.5
    seat.end(bot_pb2.EndRequest(result=bot_pb2.RESULT_LOSS, score=3,
                                dynamite=dict(round=5, last_own=3, last_opponent=1)))
    assert bot.outcome.result.name == "LOSS" and bot.outcome.state.rounds[-1] == ("S", "R")


# -- finger -----------------------------------------------------------------------------------


def hit(n: int) -> dict[str, int]:
    return {"move": n}


def test_finger_history_per_game_with_who_moved() -> None:
    answers = iter([finger.Move.LEFT_TO_RIGHT, finger.Move.SWITCH(2, 0), (1, 1), "RIGHT TO LEFT"])
    bot = Recorder(lambda s: next(answers))
    seat = finger._Seat(bot, bot_pb2.StartRequest(finger=dict(games=3, max_rounds=5000, own_name="me",
                                                              opponent_name="you")))
    # Game 1: the opponent started.
    r = act(seat, 1, finger=dict(game=1, new_game=True, starting_player="you", round=2, own_left=1, own_right=2,
                                 opponent_left=1, opponent_right=1,
                                 recent=[dict(player="you", action=hit(4))]))
    assert (r.finger.move, r.finger.switch_left, r.finger.switch_right) == (2, 0, 0)
    r = act(seat, 2, finger=dict(game=1, round=4, own_left=1, own_right=1,
                                 recent=[dict(player="me", own=True, action=hit(2)),
                                         dict(player="you", action=dict(move=5, switch_left=0, switch_right=2))]))
    assert (r.finger.move, r.finger.switch_left, r.finger.switch_right) == (5, 2, 0)
    hist = seat.state.history
    assert [h.player for h in hist] == ["you", "me", "you"]
    assert [h.own for h in hist] == [False, True, False]
    assert hist[0].move is finger.Hit.RIGHT_TO_RIGHT and hist[1].move is finger.LEFT_TO_RIGHT
    assert hist[2].move == finger.Switch(0, 2) and hist[2].move == (0, 2)
    # Game 2: history starts again.
    r = act(seat, 3, finger=dict(game=2, new_game=True, starting_player="me", started=True, round=1,
                                 own_left=1, own_right=1, opponent_left=1, opponent_right=1, games_won=1))
    assert (r.finger.move, r.finger.switch_left, r.finger.switch_right) == (5, 1, 1)
    st = seat.state
    assert st.history == [] and st.game == 2 and st.started and st.games_won == 1
    assert st.own_name == "me" and st.opponent_name == "you"
    assert len(bot.seen[1]["history"]) == 3  # the earlier game's list is left as it was
    r = act(seat, 4, finger=dict(game=2, round=3, recent=[dict(player="me", own=True, action=dict(move=5, switch_left=1, switch_right=1)),
                                                         dict(player="you", action=hit(1))]))
    assert r.finger.move == 3  # "RIGHT TO LEFT", the seed's Enum value
    assert len(seat.state.history) == 2


def test_finger_legal_moves() -> None:
    st = finger.State(finger.Setup(match_id="m", seat=0, players=(), deadline=1, clock=0, games=1, max_rounds=5000,
                                   own_name="a", opponent_name="b"))
    st.own_left, st.own_right, st.opponent_left, st.opponent_right = 0, 3, 2, 0
    assert st.legal_moves() == [finger.Move.RIGHT_TO_LEFT, (1, 2), (2, 1)]
    assert not st.legal(finger.Move.SWITCH(3, 0)) and not st.legal(finger.Move.SWITCH(0, 3))
    assert not st.legal(finger.Move.LEFT_TO_LEFT) and st.legal(finger.Move.SWITCH(1, 2))
    assert finger.to_move((2**40, -1)) == (2**31 - 1, -1)  # kept out of range, never wrapped


@pytest.mark.parametrize("bad", [None, "JUMP", (1,), (1, "2"), (True, 1), 5, [1, 2, 3]])
def test_finger_rejects_non_moves(bad: Any) -> None:
    with pytest.raises(InvalidAnswer):
        finger.to_move(bad)


# -- bidding ----------------------------------------------------------------------------------


def test_bidding_bids_rebuilt_per_game() -> None:
    bids = iter([10, 20.0, 5, 7])
    bot = Recorder(lambda s: next(bids))
    seat = bidding._Seat(bot, bot_pb2.StartRequest(bidding=dict(games=2, start_money=100, max_rounds=10,
                                                                own_name="me", opponent_name="you")))
    r = act(seat, 1, bidding=dict(game=1, new_game=True, player=1, own_money=100, opponent_money=100,
                                  start_money=100, bottle_position=5, draw_advantage=True, round=1,
                                  opponent_name="you"))
    assert r.bidding.bid == 10
    r = act(seat, 2, bidding=dict(game=1, player=1, own_money=90, opponent_money=100, bottle_position=6,
                                  has_last=True, last_own_bid=10, last_opponent_bid=8, rounds_won=1, round=2))
    assert r.bidding.bid == 20
    act(seat, 3, bidding=dict(game=1, player=1, own_money=90, opponent_money=70, bottle_position=5,
                              has_last=True, last_own_bid=20, last_opponent_bid=30, rounds_won=1, rounds_lost=1,
                              round=3))
    st = seat.state
    assert st.own_bids == [10, 20] and st.opponent_bids == [8, 30]
    assert st.side is bidding.Side.A and st.is_player_a and st.round == 3 and st.rounds_lost == 1
    assert st.opponent_name == "you" and st.own_name == "me"
    assert (st.places_to_win(), st.places_to_lose(), st.min_bid()) == (5, 5, 1)
    act(seat, 4, bidding=dict(game=2, new_game=True, player=2, own_money=100, round=1, games_won=1))
    st = seat.state
    assert st.own_bids == [] and st.opponent_bids == [] and st.side is bidding.Side.B and st.games_won == 1
    assert bot.seen[2]["own_bids"] == [10, 20]


@pytest.mark.parametrize("bad", [None, "5", 2.5, True, [3]])
def test_bidding_rejects_non_whole_bids(bad: Any) -> None:
    with pytest.raises(InvalidAnswer) as e:
        bidding.to_bid(bad)
    assert repr(bad) in str(e.value)


# -- auction ----------------------------------------------------------------------------------


def test_auction_rounds_and_collections_rebuilt() -> None:
    bot = Recorder(lambda s: 3)
    seat = auction._Seat(bot, bot_pb2.StartRequest(auction=dict(
        artists_num=3, required_count=2, auction_items=["t0", "t1", "t0", "t2"], player_count=2,
        player_names=["me", "you"], own_name="me", start_money=100)))
    assert bot.setup.auction_items == ("t0", "t1", "t0", "t2")
    r = act(seat, 1, auction=dict(item_index=0, item="t0", winning_bid=-1, wealth_table={"me": 100, "you": 100},
                                  own_money=100))
    assert r.auction.bid == 3.0
    assert seat.state.rounds == [] and seat.state.bid_winner is None
    act(seat, 2, auction=dict(item_index=1, item="t1", bid_item="t0", bid_winner="you", winning_bid=5,
                              wealth_table={"me": 100, "you": 95}, remain_time={"me": 119.5, "you": 110.0},
                              own_money=100))
    act(seat, 3, auction=dict(item_index=2, item="t0", bid_item="t1", bid_winner="me", winning_bid=3,
                              wealth_table={"me": 97, "you": 95}, own_money=97, remain_time={"me": 119.0}))
    act(seat, 4, auction=dict(item_index=2, item="t0", bid_item="t1", bid_winner="me", winning_bid=3))  # repeat
    st = seat.state
    assert st.rounds == [(0, "t0", "you", 5), (1, "t1", "me", 3)]
    assert st.collections == {"me": {"t1": 1}, "you": {"t0": 1}} and st.own_collection == {"t1": 1}
    assert (st.needs("me", "t1"), st.needs("you", "t1"), st.needs("you", "t0")) == (1, 2, 1)
    assert st.item == "t0" and st.bid_item == "t1" and st.winning_bid == 3
    assert bot.seen[2]["wealth_table"] == {"me": 97, "you": 95} and bot.seen[2]["remain_time"] == {"me": 119.0}
    seat.end(bot_pb2.EndRequest(result=bot_pb2.RESULT_WIN, auction=dict(
        item_index=3, finished=True, bid_item="t0", bid_winner="me", winning_bid=9, game_winner="me")))
    out = bot.outcome.state
    assert out.finished and out.game_winner == "me" and out.collections["me"] == {"t1": 1, "t0": 1}


@pytest.mark.parametrize("good", [0, 7, -3, 2.5, float("1e3")])
def test_auction_passes_numbers_to_the_engine(good: Any) -> None:
    assert auction.to_bid(good) == good


@pytest.mark.parametrize("bad", [None, "7", True, [1]])
def test_auction_rejects_non_numbers(bad: Any) -> None:
    with pytest.raises(InvalidAnswer):
        auction.to_bid(bad)


# -- realtv -----------------------------------------------------------------------------------


def player(pid: str, strength: int, votes: list[tuple[str, str]] = (), name: str = "Me", score: float = 0):  # type: ignore[assignment]
    return dict(id=pid, name=name, strength=strength, score=score,
                previous_moves=[dict(first_vote=a, tie_vote=b) for a, b in votes])


def test_realtv_contexts_and_votes() -> None:
    answers = iter([lambda c: min(c.active_players.values(), key=lambda p: p.strength),
                    lambda c: "BBBBBBBBBB", lambda c: None])
    bot = Recorder(lambda c: next(answers)(c))
    seat = realtv._Seat(bot, bot_pb2.StartRequest(realtv=dict(id="AAAAAAAAAA", name="Me", strength=7, phases=100,
                                                              players_per_island=12, instance=7)))
    assert bot.setup.strength == 7 and bot.setup.id == "AAAAAAAAAA"
    active = {"AAAAAAAAAA": player("AAAAAAAAAA", 7, [("CCCCCCCCCC", "")]),
              "BBBBBBBBBB": player("BBBBBBBBBB", 2, name="BotPareto", score=1.5),
              "CCCCCCCCCC": player("CCCCCCCCCC", 9)}
    r = act(seat, 1, realtv=dict(decision=1, island_index=3, day=2, game=dict(total_bots=5, total_humans=11,
                                                                              phase_index=4),
                                 active_players=active, eliminated_players={"DDDDDDDDDD": player("DDDDDDDDDD", 1)},
                                 own_score=6.0, own_id="AAAAAAAAAA"))
    assert r.realtv.vote_id == "BBBBBBBBBB"
    ctx = seat.state
    assert ctx.decision is realtv.Decision.ELIMINATION and ctx.day == 2 and ctx.island_index == 3
    assert ctx.game == realtv.GameContext(5, 11, 4) and ctx.game.phase_index == 4
    assert ctx.me is not None and ctx.me.strength == 7 and ctx.me.previous_moves == [("CCCCCCCCCC", "")]
    assert ctx.active_players["BBBBBBBBBB"].score == 1.5 and ctx.active_players["BBBBBBBBBB"].name == "BotPareto"
    assert list(ctx.eliminated_players) == ["DDDDDDDDDD"] and ctx.betrayers == {} and ctx.current_ties == {}
    r = act(seat, 2, realtv=dict(decision=2, active_players=active,
                                 current_ties={k: active[k] for k in ("BBBBBBBBBB", "CCCCCCCCCC")}))
    assert r.realtv.vote_id == "BBBBBBBBBB" and seat.state.decision is realtv.Decision.TIE
    assert set(seat.state.current_ties) == {"BBBBBBBBBB", "CCCCCCCCCC"}
    r = act(seat, 3, realtv=dict(decision=1, active_players=active))
    assert r.WhichOneof("action") == "realtv" and r.realtv.vote_id == ""  # no vote


def test_realtv_helpers_break_ties_by_id() -> None:
    ps = {i: realtv.PlayerContext(i, "n", s, 0, []) for i, s in (("C", 1), ("A", 5), ("B", 1), ("D", 5))}
    assert realtv.weakest(ps).id == "B" and realtv.strongest(ps).id == "A"  # type: ignore[union-attr]
    assert realtv.weakest({}) is None


def test_realtv_rejects_non_votes() -> None:
    with pytest.raises(InvalidAnswer):
        realtv.to_vote_id(42)
    assert realtv.to_vote_id(realtv.PlayerContext("X", "n", 1, 0, [])) == "X"
