"""Dynamite: rock, paper, scissors, dynamite and water balloons (rules: docs/rules/dynamite.md).

Write a class that subclasses :class:`Bot` and returns one of ``"R" "P" "S" "D" "W"``::

    from arena_sdk import dynamite

    class Rocky(dynamite.Bot):
        def move(self, state: dynamite.State) -> str:
            return "D" if state.own_dynamite_left and state.stake > 2 else "R"

A fresh instance plays each match. ``state.rounds`` lists every round played so far, oldest
first, from this bot's point of view (``own`` is its move, ``opponent`` the other's);
``state.as_seed_rounds()`` gives the same rounds as the seed's ``[{'p1': .., 'p2': ..}]`` list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Literal, NamedTuple

from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, SeatInfo, Seat, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import bot_pb2

__all__ = [
    "Bot", "Move", "Round", "Setup", "State", "Outcome",
    "ROCK", "PAPER", "SCISSORS", "DYNAMITE", "WATER", "MOVES",
]

GAME: Final = "dynamite"

#: A throw as the seed writes it.
Move = Literal["R", "P", "S", "D", "W"]
ROCK: Final = "R"
PAPER: Final = "P"
SCISSORS: Final = "S"
DYNAMITE: Final = "D"
WATER: Final = "W"
#: The five legal throws.
MOVES: Final[tuple[str, ...]] = ("R", "P", "S", "D", "W")

# Wire enum values (arena.v1.DynamiteMove) by throw, and back; index 0 is unspecified.
_TO_WIRE: Final = {"R": 1, "P": 2, "S": 3, "D": 4, "W": 5}
_FROM_WIRE: Final = ("", "R", "P", "S", "D", "W")


class Round(NamedTuple):
    """One played round from this bot's point of view."""

    own: str
    opponent: str

    @property
    def p1(self) -> str:
        """The seed's name for this bot's move."""
        return self.own

    @property
    def p2(self) -> str:
        """The seed's name for the opponent's move."""
        return self.opponent


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """A dynamite match's fixed rules."""

    target_score: int
    max_rounds: int
    dynamite_per_player: int


class State(Clock):
    """What the bot sees before a round. One object per seat, updated in place every round."""

    __slots__ = ("setup", "round", "rounds", "own_score", "opponent_score", "own_dynamite_left",
                 "opponent_dynamite_left", "stake", "_seed")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        #: Round about to be played, from 1.
        self.round = 0
        #: Rounds played so far, oldest first. Do not modify.
        self.rounds: list[Round] = []
        self.own_score = 0
        self.opponent_score = 0
        self.own_dynamite_left = setup.dynamite_per_player
        self.opponent_dynamite_left = setup.dynamite_per_player
        #: Points the coming round is worth (1 plus the draws rolled over).
        self.stake = 1
        self._seed: list[dict[str, str]] = []

    def as_seed_rounds(self) -> list[dict[str, str]]:
        """The rounds as the seed's API shows them: ``[{'p1': own, 'p2': opponent}, ...]``.

        The list is built incrementally and shared between calls; do not modify it.
        """
        seed, rounds = self._seed, self.rounds
        for i in range(len(seed), len(rounds)):
            r = rounds[i]
            seed.append({"p1": r[0], "p2": r[1]})
        return seed

    def as_seed_gamestate(self) -> dict[str, list[dict[str, str]]]:
        """The seed class bot's ``gamestate``: ``{'rounds': as_seed_rounds()}``."""
        return {"rounds": self.as_seed_rounds()}


class Bot(BotBase):
    """Subclass this and implement :meth:`move`. A new instance plays each match."""

    game: ClassVar[str] = GAME

    def start(self, setup: Setup) -> None:
        """Called once when the match opens, before the first move."""

    def move(self, state: State) -> str:
        """Returns the throw for the coming round: "R", "P", "S", "D" or "W"."""
        raise NotImplementedError(f"{type(self).__name__} must implement move(self, state)")

    def end(self, outcome: Outcome[State]) -> None:
        """Called once when the match is over."""


class _Seat(Seat):
    __slots__ = ("state", "_move")

    game = GAME

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        s = req.dynamite
        setup = Setup(**SeatInfo._fields_of(req), target_score=s.target_score,
                      max_rounds=s.max_rounds, dynamite_per_player=s.dynamite_per_player)
        self.state = State(setup)
        self._move = bot.move
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def _observe(self, o: object) -> None:
        st = self.state
        rnd = o.round  # type: ignore[attr-defined]
        # Append the previous round once, even if a request is ever repeated.
        if rnd > len(st.rounds) + 1 and o.last_own:  # type: ignore[attr-defined]
            st.rounds.append(Round(_FROM_WIRE[o.last_own], _FROM_WIRE[o.last_opponent]))  # type: ignore[attr-defined]
        st.round = rnd
        st.own_score = o.own_score  # type: ignore[attr-defined]
        st.opponent_score = o.opponent_score  # type: ignore[attr-defined]
        st.own_dynamite_left = o.own_dynamite_left  # type: ignore[attr-defined]
        st.opponent_dynamite_left = o.opponent_dynamite_left  # type: ignore[attr-defined]
        st.stake = o.stake  # type: ignore[attr-defined]

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        if not req.HasField("dynamite"):
            raise InvalidAnswer(f"expected a dynamite observation, got {req.WhichOneof('observation')}")
        self._observe(req.dynamite)
        st = self.state
        st._tick(req, now)
        m = self._move(st)
        try:
            w = _TO_WIRE.get(m)
        except TypeError:  # unhashable answer
            w = None
        if w is None:
            raise InvalidAnswer(f"move() returned {describe_value(m)}, not one of 'R', 'P', 'S', 'D', 'W'")
        resp.dynamite.move = w  # type: ignore[assignment]  # the wire enum is an int

    def end(self, req: bot_pb2.EndRequest) -> None:
        if req.HasField("dynamite"):
            self._observe(req.dynamite)
        self._call_end(req, self.state)
