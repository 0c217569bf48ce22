"""Bidding game: two players bid for a bottle that moves one place toward each round's winner
(rules: docs/rules/bidding.md).

Write a class that subclasses :class:`Bot` and returns a whole-dollar bid::

    from arena_sdk import bidding

    class Steady(bidding.Bot):
        def bid(self, state: bidding.State) -> int:
            if state.own_money == 0:
                return 0
            return min(state.own_money, 12)

A bid must be at least 1 and at most ``state.own_money``, or 0 when the bot has no money left.
A match is a series of games with sides alternating; ``state.own_bids`` and
``state.opponent_bids`` hold the bids of the current game only.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, SeatInfo, Seat, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import bidding_pb2, bot_pb2

__all__ = ["Bot", "Side", "Setup", "State", "Outcome"]

GAME: Final = "bidding"


class Side(enum.Enum):
    """Side A wins the bottle at place 10, side B at place 0. A holds the draw advantage first."""

    UNKNOWN = 0
    A = 1
    B = 2


_SIDES: Final = (Side.UNKNOWN, Side.A, Side.B)


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """A bidding match: a series of games."""

    games: int
    start_money: int
    #: Rounds after which a game without a winner is a draw.
    max_rounds: int
    own_name: str
    opponent_name: str


class State(Clock):
    """What the bot sees before a bid. One object per seat, updated in place."""

    __slots__ = ("setup", "game", "new_game", "round", "side", "own_money", "opponent_money",
                 "start_money", "bottle_position", "own_bids", "opponent_bids", "rounds_won",
                 "rounds_lost", "draw_advantage", "opponent_name", "games_won", "games_lost",
                 "games_drawn")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        #: Game within the match, from 1.
        self.game = 0
        #: True on the first bid of a new game.
        self.new_game = False
        #: Round within the game, from 1.
        self.round = 0
        self.side = Side.UNKNOWN
        self.own_money = setup.start_money
        self.opponent_money = setup.start_money
        self.start_money = setup.start_money
        #: Place of the bottle, 0..10; side A wins at 10, side B at 0.
        self.bottle_position = 5
        #: Bids of the current game, oldest first. New lists each game; do not modify.
        self.own_bids: list[int] = []
        self.opponent_bids: list[int] = []
        #: Rounds of the current game won and lost (a tie goes to the draw advantage's holder).
        self.rounds_won = 0
        self.rounds_lost = 0
        #: True while this bot holds the draw advantage.
        self.draw_advantage = False
        self.opponent_name = setup.opponent_name
        #: Games of the match decided so far.
        self.games_won = 0
        self.games_lost = 0
        self.games_drawn = 0

    @property
    def is_player_a(self) -> bool:
        return self.side is Side.A

    @property
    def own_name(self) -> str:
        return self.setup.own_name

    def places_to_win(self) -> int:
        """How many more rounds this bot must win (net) for the bottle to reach its end."""
        return 10 - self.bottle_position if self.side is Side.A else self.bottle_position

    def places_to_lose(self) -> int:
        """How many more rounds the opponent must win (net) to take the bottle."""
        return 10 - self.places_to_win()

    def min_bid(self) -> int:
        """The least legal bid: 1, or 0 when this bot has no money left."""
        return min(1, self.own_money)


class Bot(BotBase):
    """Subclass this and implement :meth:`bid`. A new instance plays each match (all its games)."""

    game: ClassVar[str] = GAME

    def start(self, setup: Setup) -> None:
        """Called once when the match opens."""

    def bid(self, state: State) -> int:
        """Returns this round's sealed bid in whole dollars."""
        raise NotImplementedError(f"{type(self).__name__} must implement bid(self, state)")

    def end(self, outcome: Outcome[State]) -> None:
        """Called once when the match is over."""


def to_bid(value: object) -> int:
    """Checks a bid: a whole number (an int, or a float without fraction). Raises InvalidAnswer.

    Range rules (at least 1, at most the money) are the engine's: it abandons the game.
    """
    if type(value) is int:
        number = value
    elif isinstance(value, bool) or value is None:
        raise InvalidAnswer(f"bid() returned {describe_value(value)}, not a whole number of dollars")
    elif hasattr(value, "__index__"):
        number = value.__index__()
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    else:
        raise InvalidAnswer(f"bid() returned {describe_value(value)}, not a whole number of dollars")
    if not -(2**63) <= number < 2**63:
        raise InvalidAnswer(f"bid() returned {number}, out of range")
    return number


class _Seat(Seat):
    __slots__ = ("state", "_bid")

    game = GAME

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        s = req.bidding
        setup = Setup(**SeatInfo._fields_of(req), games=s.games, start_money=s.start_money,
                      max_rounds=s.max_rounds, own_name=s.own_name, opponent_name=s.opponent_name)
        self.state = State(setup)
        self._bid = bot.bid
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def _observe(self, o: bidding_pb2.BiddingObservation) -> None:
        st = self.state
        if o.new_game or o.game != st.game:
            st.own_bids = []
            st.opponent_bids = []
        # The previous round's bids, once (the round number guards against a repeated request).
        if o.has_last and len(st.own_bids) < o.round - 1:
            st.own_bids.append(o.last_own_bid)
            st.opponent_bids.append(o.last_opponent_bid)
        st.game = o.game
        st.new_game = o.new_game
        st.round = o.round
        st.side = _SIDES[o.player] if 0 <= o.player < 3 else Side.UNKNOWN
        st.own_money, st.opponent_money = o.own_money, o.opponent_money
        st.start_money = o.start_money
        st.bottle_position = o.bottle_position
        st.rounds_won, st.rounds_lost = o.rounds_won, o.rounds_lost
        st.draw_advantage = o.draw_advantage
        if o.opponent_name:
            st.opponent_name = o.opponent_name
        st.games_won, st.games_lost, st.games_drawn = o.games_won, o.games_lost, o.games_drawn

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        if not req.HasField("bidding"):
            raise InvalidAnswer(f"expected a bidding observation, got {req.WhichOneof('observation')}")
        self._observe(req.bidding)
        st = self.state
        st._tick(req, now)
        resp.bidding.bid = to_bid(self._bid(st))

    def end(self, req: bot_pb2.EndRequest) -> None:
        if req.HasField("bidding"):
            self._observe(req.bidding)
        self._call_end(req, self.state)
