"""Real TV: players on an island vote each other out; betrayers share a bounty when the team
fails its trial (rules: docs/rules/realtv.md).

Write a class that subclasses :class:`Bot` with the two votes::

    from arena_sdk import realtv

    class LikesThemStrong(realtv.Bot):
        def vote_for_elimination(self, ctx: realtv.Context) -> realtv.PlayerContext:
            return min(ctx.active_players.values(), key=lambda p: p.strength)

        def vote_for_tie(self, ctx: realtv.Context) -> realtv.PlayerContext:
            return min(ctx.current_ties.values(), key=lambda p: p.strength)

A contest makes 11 instances of the class (strengths 0..10), one per seat, that live for all
phases; ``self`` keeps its memory, and class attributes are shared by the 11 instances, as in the
seed. ``start(setup)`` tells an instance its id and strength. A vote is a :class:`PlayerContext`,
any object with an ``id``, or an id string; voting for yourself, for a player who is not active,
or not voting (None) in the first vote is betrayal.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, Union

from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, SeatInfo, Seat, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import bot_pb2, realtv_pb2

__all__ = ["Bot", "Context", "weakest", "strongest", "Decision", "GameContext", "PlayerContext", "Setup", "Votes", "Vote", "Outcome",
           "PLAYERS_PER_ISLAND", "PHASES_PER_GAME", "SCORE_FOR_TRIAL", "SCORE_FOR_LASTMAN",
           "SCORE_FOR_ALL_TRAITORS", "DIFFICULTY_A", "DIFFICULTY_B", "INSTANCES_STRENGTH"]

GAME: Final = "realtv"

# The seed's constants.
PLAYERS_PER_ISLAND: Final = 12
PHASES_PER_GAME: Final = 100
SCORE_FOR_TRIAL: Final = 3
SCORE_FOR_LASTMAN: Final = 100
SCORE_FOR_EACH_TRAITOR: Final = 0
SCORE_FOR_ALL_TRAITORS: Final = 100
INSTANCES_STRENGTH: Final = tuple(range(11))
INSTANCES_PER_PLAYER: Final = len(INSTANCES_STRENGTH)
#: A trial with n players succeeds when their strengths sum to DIFFICULTY_A * n + DIFFICULTY_B or more.
DIFFICULTY_A: Final = 7
DIFFICULTY_B: Final = -3


class Decision(enum.Enum):
    """Which vote is asked for."""

    UNSPECIFIED = 0
    ELIMINATION = 1
    TIE = 2


_DECISIONS: Final = (Decision.UNSPECIFIED, Decision.ELIMINATION, Decision.TIE)


class Votes(NamedTuple):
    """A player's votes of one day on the current island (ids as given; "" when none)."""

    first_vote: str
    tie_vote: str


class PlayerContext:
    """The seed's PlayerContext: one player as seen at the start of the day."""

    __slots__ = ("id", "name", "strength", "score", "previous_moves")

    def __init__(self, id: str, name: str, strength: int, score: float, previous_moves: list[Votes]) -> None:
        self.id = id
        #: Class name of the player's script ("BotPareto" for a filler bot).
        self.name = name
        self.strength = strength
        #: Score as of the start of the day (fractional after a split bounty).
        self.score = score
        #: Votes this player cast on the current island, one per day, oldest first.
        self.previous_moves = previous_moves

    def __repr__(self) -> str:
        return f"PlayerContext(id={self.id!r}, name={self.name!r}, strength={self.strength}, score={self.score})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayerContext) and other.id == self.id

    def __hash__(self) -> int:
        return hash(self.id)


class GameContext(NamedTuple):
    """The seed's GameContext."""

    #: Filler bots in the whole arena.
    total_bots: int
    #: Player instances (not filler bots) in the whole arena.
    total_humans: int
    #: Islands this instance has been on before this one.
    phase_index: int


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """One instance of the script."""

    #: The instance's own id (10 upper-case letters and digits).
    id: str
    #: Class name of the script.
    name: str
    strength: int
    phases: int
    players_per_island: int
    #: Index of this instance among its script's instances (0..10).
    instance: int


class Context(Clock):
    """The seed's Context plus the decision asked. One object per seat, updated in place."""

    __slots__ = ("setup", "decision", "island_index", "day", "game", "active_players", "betrayers",
                 "eliminated_players", "current_ties", "own_score", "own_id")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        self.decision = Decision.UNSPECIFIED
        self.island_index = 0
        #: Day on this island, from 1.
        self.day = 0
        self.game = GameContext(0, 0, 0)
        #: {id: PlayerContext}: players on the island (for a tie vote, those left after today's
        #: traitors went).
        self.active_players: dict[str, PlayerContext] = {}
        #: {id: PlayerContext}: those who share the bounty if the team fails a trial.
        self.betrayers: dict[str, PlayerContext] = {}
        self.eliminated_players: dict[str, PlayerContext] = {}
        #: {id: PlayerContext}: the tied players, only during a tie vote.
        self.current_ties: dict[str, PlayerContext] = {}
        #: This instance's own score now.
        self.own_score = 0.0
        self.own_id = setup.id

    @property
    def me(self) -> PlayerContext | None:
        """This instance's own PlayerContext on the island."""
        return self.active_players.get(self.own_id)


#: What a vote may be: a PlayerContext, anything with an ``id``, an id, or None for no vote.
Vote = Union[PlayerContext, str, None, object]


class Bot(BotBase):
    """Subclass this and implement both votes. One instance per seat (per strength)."""

    game: ClassVar[str] = GAME

    def start(self, setup: Setup) -> None:
        """Called once when the instance is created, with its id and strength."""

    def vote_for_elimination(self, ctx: Context) -> Vote:
        """The day's vote: who should leave the island."""
        raise NotImplementedError(f"{type(self).__name__} must implement vote_for_elimination(self, ctx)")

    def vote_for_tie(self, ctx: Context) -> Vote:
        """The tie-break vote among ``ctx.current_ties``."""
        raise NotImplementedError(f"{type(self).__name__} must implement vote_for_tie(self, ctx)")

    def end(self, outcome: Outcome[Context]) -> None:
        """Called once when the contest is over."""


def _players(m: object) -> dict[str, PlayerContext]:
    # Sorted by id so that iteration order, and so a bot's choice among equals, never depends
    # on the wire map's order.
    return {k: PlayerContext(p.id or k, p.name, p.strength, p.score,
                             [Votes(v.first_vote, v.tie_vote) for v in p.previous_moves])
            for k, p in sorted(m.items())}  # type: ignore[attr-defined]


def weakest(players: dict[str, PlayerContext]) -> PlayerContext | None:
    """The player of least strength (the smallest id among equals); None if there is none."""
    return min(players.values(), key=lambda p: (p.strength, p.id), default=None)


def strongest(players: dict[str, PlayerContext]) -> PlayerContext | None:
    """The player of greatest strength (the smallest id among equals); None if there is none."""
    return min(players.values(), key=lambda p: (-p.strength, p.id), default=None)


def to_vote_id(value: object) -> str:
    """A vote's id: a string, an object's ``id`` string, or "" for None. Raises InvalidAnswer."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    vid = getattr(value, "id", None)
    if isinstance(vid, str):
        return vid
    raise InvalidAnswer(f"vote returned {describe_value(value)}, not a PlayerContext, a player id or None")


class _Seat(Seat):
    __slots__ = ("state",)

    game = GAME

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        s = req.realtv
        setup = Setup(**SeatInfo._fields_of(req), id=s.id, name=s.name, strength=s.strength, phases=s.phases,
                      players_per_island=s.players_per_island, instance=s.instance)
        self.state = Context(setup)
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def _observe(self, o: realtv_pb2.RealtvObservation) -> None:
        st = self.state
        st.decision = _DECISIONS[o.decision] if 0 <= o.decision < 3 else Decision.UNSPECIFIED
        st.island_index = o.island_index
        st.day = o.day
        g = o.game
        st.game = GameContext(g.total_bots, g.total_humans, g.phase_index)
        st.active_players = _players(o.active_players)
        st.betrayers = _players(o.betrayers)
        st.eliminated_players = _players(o.eliminated_players)
        st.current_ties = _players(o.current_ties)
        st.own_score = o.own_score
        if o.own_id:
            st.own_id = o.own_id

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        if not req.HasField("realtv"):
            raise InvalidAnswer(f"expected a realtv observation, got {req.WhichOneof('observation')}")
        self._observe(req.realtv)
        st = self.state
        st._tick(req, now)
        if st.decision is Decision.TIE:
            vote = self.bot.vote_for_tie(st)
        else:
            vote = self.bot.vote_for_elimination(st)
        resp.realtv.vote_id = to_vote_id(vote)

    def end(self, req: bot_pb2.EndRequest) -> None:
        if req.HasField("realtv"):
            self._observe(req.realtv)
        self._call_end(req, self.state)
