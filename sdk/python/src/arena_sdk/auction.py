"""Auction game: sealed bids for a known list of paintings; the first to own
``required_count`` works of one artist wins (rules: docs/rules/auction.md).

Write a class that subclasses :class:`Bot` and returns a bid for the item on sale::

    from arena_sdk import auction

    class Collector(auction.Bot):
        def bid(self, state: auction.State) -> int:
            mine = state.collections[state.setup.own_name].get(state.item, 0)
            return min(state.own_money, 10 * (mine + 1))

The whole item list is in ``state.setup.auction_items``; ``state.rounds`` lists every round sold
so far and ``state.collections`` counts what each player owns per artist. A bid above the bot's
money, negative or fractional, counts as 0. Each player also has a total clock (a chess clock):
``state.own_remain_time`` and ``state.clock_remaining``.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple

from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, SeatInfo, Seat, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import auction_pb2, bot_pb2

__all__ = ["Bot", "RoundResult", "Setup", "State", "Outcome"]

GAME: Final = "auction"


class RoundResult(NamedTuple):
    """One sold item."""

    #: Index of the item in the auction list, from 0.
    item_index: int
    #: Its artist ("t0", "t1", ...).
    artist: str
    #: Name of the player who bought it; None when nobody did.
    winner: str | None
    #: What the winner paid; -1 when nobody won.
    bid: int


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """The auction's initial state (the seed's first message)."""

    artists_num: int
    required_count: int
    #: Artist of every item, in auction order.
    auction_items: tuple[str, ...]
    player_count: int
    #: Player names by seat (the keys of wealth_table).
    player_names: tuple[str, ...]
    own_name: str
    start_money: int


class State(Clock):
    """What the bot sees before a bid: the result of the previous round and everything before.
    One object per seat, updated in place."""

    __slots__ = ("setup", "item_index", "item", "finished", "bid_item", "bid_winner", "winning_bid",
                 "wealth_table", "remain_time", "own_money", "game_winner", "rounds", "collections")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        #: Index of the item now on sale, from 0.
        self.item_index = 0
        #: Artist of the item now on sale; "" once the auction is finished.
        self.item = setup.auction_items[0] if setup.auction_items else ""
        #: True when the auction is over (seen in ``end``).
        self.finished = False
        #: The previous round, as the seed reports it: its artist ("" before the first round),
        #: winner (None when nobody won) and winning bid (-1 when nobody won).
        self.bid_item = ""
        self.bid_winner: str | None = None
        self.winning_bid = -1
        #: Money of every player by name; -1 for a disqualified player.
        self.wealth_table: dict[str, int] = {n: setup.start_money for n in setup.player_names}
        #: Remaining total clock of every player by name, in seconds.
        self.remain_time: dict[str, float] = {}
        self.own_money = setup.start_money
        #: Name of the winner once finished; "" for a draw.
        self.game_winner = ""
        #: Every sold round so far, oldest first. Do not modify.
        self.rounds: list[RoundResult] = []
        #: Works owned per player and artist: collections[name][artist] = count.
        self.collections: dict[str, dict[str, int]] = {n: {} for n in setup.player_names}

    @property
    def own_remain_time(self) -> float:
        """This bot's remaining total clock in seconds, as of the previous round."""
        return self.remain_time.get(self.setup.own_name, self.clock_remaining)

    @property
    def own_collection(self) -> dict[str, int]:
        """Works this bot owns per artist."""
        return self.collections.setdefault(self.setup.own_name, {})

    def needs(self, player: str, artist: str) -> int:
        """How many more works of artist the named player must win."""
        return max(0, self.setup.required_count - self.collections.get(player, {}).get(artist, 0))


class Bot(BotBase):
    """Subclass this and implement :meth:`bid`. A new instance plays each auction."""

    game: ClassVar[str] = GAME

    def start(self, setup: Setup) -> None:
        """Called once when the auction opens, with the whole item list."""

    def bid(self, state: State) -> int | float:
        """Returns the sealed bid for ``state.item``."""
        raise NotImplementedError(f"{type(self).__name__} must implement bid(self, state)")

    def end(self, outcome: Outcome[State]) -> None:
        """Called once when the auction is over; ``outcome.state`` has the final round."""


def to_bid(value: object) -> float:
    """Checks a bid: any real number (the engine turns negatives, fractions and bids above the
    bot's money into 0). Raises InvalidAnswer for anything else."""
    if type(value) is int or type(value) is float:
        return value
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidAnswer(f"bid() returned {describe_value(value)}, not a number")
    return float(value)


class _Seat(Seat):
    __slots__ = ("state", "_bid")

    game = GAME

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        s = req.auction
        setup = Setup(**SeatInfo._fields_of(req), artists_num=s.artists_num, required_count=s.required_count,
                      auction_items=tuple(s.auction_items), player_count=s.player_count,
                      player_names=tuple(s.player_names), own_name=s.own_name, start_money=s.start_money)
        self.state = State(setup)
        self._bid = bot.bid
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def _observe(self, o: auction_pb2.AuctionObservation) -> None:
        st = self.state
        winner = o.bid_winner or None
        prev = o.item_index - 1
        if o.bid_item and (not st.rounds or st.rounds[-1].item_index < prev):
            st.rounds.append(RoundResult(prev, o.bid_item, winner, o.winning_bid))
            if winner is not None:
                owned = st.collections.get(winner)
                if owned is None:
                    owned = st.collections[winner] = {}
                owned[o.bid_item] = owned.get(o.bid_item, 0) + 1
        st.item_index = o.item_index
        st.item = o.item
        st.finished = o.finished
        st.bid_item = o.bid_item
        st.bid_winner = winner
        st.winning_bid = o.winning_bid
        st.wealth_table = dict(o.wealth_table)
        st.remain_time = dict(o.remain_time)
        st.own_money = o.own_money
        st.game_winner = o.game_winner

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        if not req.HasField("auction"):
            raise InvalidAnswer(f"expected an auction observation, got {req.WhichOneof('observation')}")
        self._observe(req.auction)
        st = self.state
        st._tick(req, now)
        resp.auction.bid = to_bid(self._bid(st))

    def end(self, req: bot_pb2.EndRequest) -> None:
        if req.HasField("auction"):
            self._observe(req.auction)
        self._call_end(req, self.state)
