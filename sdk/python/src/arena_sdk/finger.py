"""Finger game: hit the opponent's hands or switch your own fingers (rules: docs/rules/finger.md).

Write a class that subclasses :class:`Bot` and returns a hit or a switch::

    from arena_sdk import finger
    from arena_sdk.finger import Move

    class Hitter(finger.Bot):
        def move(self, state: finger.State) -> finger.FingerMove:
            if state.own_left and state.opponent_left:
                return Move.LEFT_TO_LEFT
            ...
            return Move.SWITCH(state.own_right, state.own_left + 0)

``Move.LEFT_TO_RIGHT`` means: my LEFT hand hits the opponent's RIGHT hand. ``Move.SWITCH(l, r)``
sets my hands to l and r fingers (same total). A match is a series of games; ``state.history``
holds the moves of the current game only, with who made each one.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, Union, cast

from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, SeatInfo, Seat, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import bot_pb2, finger_pb2

__all__ = ["Bot", "Hit", "Switch", "Move", "FingerMove", "HistoryEntry", "Setup", "State", "Outcome",
           "LEFT_TO_LEFT", "LEFT_TO_RIGHT", "RIGHT_TO_LEFT", "RIGHT_TO_RIGHT"]

GAME: Final = "finger"


class Hit(enum.Enum):
    """A hit: my hand (first word) hits the opponent's hand (last word)."""

    LEFT_TO_LEFT = "LEFT_TO_LEFT"
    LEFT_TO_RIGHT = "LEFT_TO_RIGHT"
    RIGHT_TO_LEFT = "RIGHT_TO_LEFT"
    RIGHT_TO_RIGHT = "RIGHT_TO_RIGHT"

    def __repr__(self) -> str:
        return f"Move.{self.name}"


class Switch(NamedTuple):
    """A switch: set my hands to exactly ``left`` and ``right`` fingers (a plain tuple, as the
    seed's ``Move.SWITCH(left, right)`` returns)."""

    left: int
    right: int


#: What ``move`` returns.
FingerMove = Union[Hit, Switch]

LEFT_TO_LEFT: Final = Hit.LEFT_TO_LEFT
LEFT_TO_RIGHT: Final = Hit.LEFT_TO_RIGHT
RIGHT_TO_LEFT: Final = Hit.RIGHT_TO_LEFT
RIGHT_TO_RIGHT: Final = Hit.RIGHT_TO_RIGHT


class Move:
    """The seed's spelling: ``Move.LEFT_TO_RIGHT`` ... and ``Move.SWITCH(left, right)``."""

    LEFT_TO_LEFT: Final = Hit.LEFT_TO_LEFT
    LEFT_TO_RIGHT: Final = Hit.LEFT_TO_RIGHT
    RIGHT_TO_LEFT: Final = Hit.RIGHT_TO_LEFT
    RIGHT_TO_RIGHT: Final = Hit.RIGHT_TO_RIGHT
    SWITCH: Final = Switch


class HistoryEntry(NamedTuple):
    """One move of the current game."""

    #: Name of the player who moved.
    player: str
    move: FingerMove
    #: True when this bot made the move (names may repeat when a bot plays itself).
    own: bool


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """A finger match: a series of games."""

    games: int
    #: Moves after which a game ends with both players losing.
    max_rounds: int
    own_name: str
    opponent_name: str


class State(Clock):
    """What the bot sees before its move. One object per seat, updated in place."""

    __slots__ = ("setup", "game", "new_game", "round", "starting_player", "started", "own_left",
                 "own_right", "opponent_left", "opponent_right", "history", "games_won",
                 "games_lost", "games_both_lost")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        self.setup = setup
        #: Game within the match, from 1.
        self.game = 0
        #: True on this bot's first move of a new game.
        self.new_game = False
        #: Move number within the current game, from 1: the move about to be played. (The
        #: seed's get_current_round() counted moves already played: round - 1.)
        self.round = 0
        #: Name of the player who started the current game.
        self.starting_player = ""
        #: True when this bot started the current game.
        self.started = False
        self.own_left = 1
        self.own_right = 1
        self.opponent_left = 1
        self.opponent_right = 1
        #: Moves of the current game, oldest first. A new list each game; do not modify.
        self.history: list[HistoryEntry] = []
        #: Games of the match won, lost, and ended by the move cap (both lose).
        self.games_won = 0
        self.games_lost = 0
        self.games_both_lost = 0

    @property
    def own_name(self) -> str:
        return self.setup.own_name

    def legal(self, move: FingerMove) -> bool:
        """Whether move is legal now (an illegal move loses the game at once)."""
        own = (self.own_left, self.own_right)
        if isinstance(move, Hit):
            frm, to = _HANDS[move]
            return own[frm] > 0 and (self.opponent_left, self.opponent_right)[to] > 0
        if not isinstance(move, tuple) or len(move) != 2:
            return False
        left, right = move
        return (0 <= left <= 5 and 0 <= right <= 5 and left + right == own[0] + own[1]
                and (left, right) != own and (right, left) != own)

    def legal_moves(self) -> list[FingerMove]:
        """Every legal move now: hits first, then switches by growing left hand."""
        moves: list[FingerMove] = [h for h in Hit if self.legal(h)]
        total = self.own_left + self.own_right
        moves += [Switch(left, total - left) for left in range(6) if self.legal(Switch(left, total - left))]
        return moves

    @property
    def opponent_name(self) -> str:
        return self.setup.opponent_name


class Bot(BotBase):
    """Subclass this and implement :meth:`move`. A new instance plays each match (all its games)."""

    game: ClassVar[str] = GAME

    def start(self, setup: Setup) -> None:
        """Called once when the match opens."""

    def move(self, state: State) -> FingerMove:
        """Returns ``Move.LEFT_TO_LEFT`` ... ``Move.RIGHT_TO_RIGHT`` or ``Move.SWITCH(left, right)``."""
        raise NotImplementedError(f"{type(self).__name__} must implement move(self, state)")

    def end(self, outcome: Outcome[State]) -> None:
        """Called once when the match is over."""


# Attacking and target hand of each hit (0 left, 1 right).
_HANDS: Final = {Hit.LEFT_TO_LEFT: (0, 0), Hit.LEFT_TO_RIGHT: (0, 1), Hit.RIGHT_TO_LEFT: (1, 0),
                 Hit.RIGHT_TO_RIGHT: (1, 1)}

# Wire enum (arena.v1.FingerMove) <-> Hit; 5 is FINGER_MOVE_SWITCH.
_HIT_TO_WIRE: Final = {Hit.LEFT_TO_LEFT: 1, Hit.LEFT_TO_RIGHT: 2, Hit.RIGHT_TO_LEFT: 3, Hit.RIGHT_TO_RIGHT: 4}
_WIRE_TO_HIT: Final = {v: k for k, v in _HIT_TO_WIRE.items()}
_SWITCH: Final = 5
# Names accepted as strings too: "LEFT_TO_RIGHT" and the seed Enum's values "LEFT TO RIGHT".
_HIT_BY_NAME: Final = {**{h.value: h for h in Hit}, **{h.value.replace("_", " "): h for h in Hit}}


def _from_wire(a: finger_pb2.FingerAction) -> FingerMove:
    hit = _WIRE_TO_HIT.get(a.move)
    return hit if hit is not None else Switch(a.switch_left, a.switch_right)


def _count(n: object, move: object) -> int:
    """A switch's finger count; out-of-range counts stay out of range (the engine rejects them)
    rather than wrapping into a legal one."""
    if isinstance(n, bool) or not hasattr(n, "__index__"):
        raise InvalidAnswer(f"move() returned the switch {describe_value(move)}: counts must be whole numbers")
    return max(-(2**31), min(2**31 - 1, cast(int, n.__index__())))


def to_move(value: object) -> FingerMove:
    """Checks an answer: a Hit, a Switch or (left, right) tuple, or a hit's name. Raises InvalidAnswer."""
    if isinstance(value, Hit):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        return Switch(_count(value[0], value), _count(value[1], value))
    if isinstance(value, str):
        hit = _HIT_BY_NAME.get(value)
        if hit is not None:
            return hit
    raise InvalidAnswer(f"move() returned {describe_value(value)}, not Move.LEFT_TO_LEFT, Move.LEFT_TO_RIGHT, "
                        "Move.RIGHT_TO_LEFT, Move.RIGHT_TO_RIGHT or Move.SWITCH(left, right)")


class _Seat(Seat):
    __slots__ = ("state", "_move")

    game = GAME

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        s = req.finger
        setup = Setup(**SeatInfo._fields_of(req), games=s.games, max_rounds=s.max_rounds,
                      own_name=s.own_name, opponent_name=s.opponent_name)
        self.state = State(setup)
        self._move = bot.move
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def _observe(self, o: finger_pb2.FingerObservation) -> None:
        st = self.state
        if o.new_game or o.game != st.game:
            st.history = []
        st.game = o.game
        st.new_game = o.new_game
        st.round = o.round
        st.starting_player = o.starting_player
        st.started = o.started
        st.own_left, st.own_right = o.own_left, o.own_right
        st.opponent_left, st.opponent_right = o.opponent_left, o.opponent_right
        st.games_won, st.games_lost, st.games_both_lost = o.games_won, o.games_lost, o.games_both_lost
        if o.recent:
            append = st.history.append
            for e in o.recent:
                append(HistoryEntry(e.player, _from_wire(e.action), e.own))

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        if not req.HasField("finger"):
            raise InvalidAnswer(f"expected a finger observation, got {req.WhichOneof('observation')}")
        self._observe(req.finger)
        st = self.state
        st._tick(req, now)
        m = to_move(self._move(st))
        out = resp.finger
        if type(m) is Switch:
            out.move = _SWITCH  # type: ignore[assignment]  # the wire enum is an int
            out.switch_left, out.switch_right = m
        else:
            out.move = _HIT_TO_WIRE[m]  # type: ignore[index,assignment]

    def end(self, req: bot_pb2.EndRequest) -> None:
        if req.HasField("finger"):
            self._observe(req.finger)
        self._call_end(req, self.state)
