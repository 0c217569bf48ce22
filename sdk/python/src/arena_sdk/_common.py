"""Pieces every game module shares: the clock, setups, outcomes, the seat protocol and the
user's traceback without the SDK's frames."""

from __future__ import annotations

import atexit
import enum
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from arena_sdk._handshake import SERVED, not_served_message

if TYPE_CHECKING:  # the generated stubs are only needed by the seats, not by bot authors
    from arena_sdk._pb.arena.v1 import bot_pb2

_monotonic = time.monotonic
_process_time = time.process_time
#: arena.v1.ClockMode.CLOCK_MODE_CPU (the stubs are imported only for type checking here).
_CLOCK_MODE_CPU = 2


class InvalidAnswer(Exception):
    """Raised by a seat when the user's code returned something that is not a move of its game.

    The message names the bad value; the host charges it as the game's fault for a garbage answer.
    """


def describe_value(value: object, limit: int = 120) -> str:
    """A short repr of a bad answer, with its type, for error messages."""
    try:
        text = repr(value)
    except Exception:  # a user object whose __repr__ raises
        text = "<unprintable>"
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return f"{text} (type {type(value).__name__})"


_SDK_DIR = os.path.dirname(os.path.abspath(__file__))
# Frames of the SDK and of the import machinery that runs a bot file are not the user's.
_SKIP = (_SDK_DIR, "<frozen importlib")


def user_traceback(exc: BaseException) -> str:
    """The traceback of exc without the SDK's own frames at its top."""
    import traceback  # only when user code failed: it is not needed to start

    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None and tb.tb_frame.f_code.co_filename.startswith(_SKIP):
        tb = tb.tb_next
    return "".join(traceback.format_exception(type(exc), exc, tb))


class Clock:
    """Time for the current move, set when the request arrives.

    ``time_left()`` is the time until the host stops waiting for this move, in seconds, were
    the move's budget wall time (under the CPU clock a bot using one core has at least that).
    ``clock_remaining`` is what was left of the seat's total clock when the request arrived, in
    seconds (0.0 when the game has no clock). ``cpu_clock`` is true when moves are charged the
    CPU time of the bot's own processes instead of wall time; ``budget`` is this move's budget
    and ``bank_remaining`` what is left of the seat's overage bank (the move may spend
    ``budget + bank_remaining``; what it spends past ``budget`` leaves the bank), in seconds;
    ``wall_cap`` is the wall time after which the move is a timeout whatever its CPU time.
    ``cpu_used()`` is the CPU time this process has used since the request arrived.
    """

    __slots__ = (
        "deadline",
        "clock_remaining",
        "cpu_clock",
        "budget",
        "bank_remaining",
        "wall_cap",
        "_received",
        "_cpu0",
    )

    def __init__(self) -> None:
        #: ``time.monotonic()`` value at which the host stops waiting for this move.
        self.deadline: float = 0.0
        self.clock_remaining: float = 0.0
        self.cpu_clock: bool = False
        self.budget: float = 0.0
        self.bank_remaining: float = 0.0
        self.wall_cap: float = 0.0
        self._received: float = 0.0
        self._cpu0: float = 0.0

    def time_left(self) -> float:
        """Seconds left for the current move (may be negative once the deadline has passed)."""
        return self.deadline - _monotonic()

    def elapsed(self) -> float:
        """Seconds since the current request arrived."""
        return _monotonic() - self._received

    def cpu_used(self) -> float:
        """CPU seconds this process has used since the current request arrived."""
        return _process_time() - self._cpu0

    def _tick(self, req: bot_pb2.ActRequest, now: float) -> None:
        self._received = now
        self.deadline = now + req.deadline_ms / 1000.0
        self.clock_remaining = req.clock_remaining_ms / 1000.0
        self.cpu_clock = req.clock_mode == _CLOCK_MODE_CPU
        # An older host sends no budget: its deadline is the budget.
        self.budget = req.budget_us / 1e6 if req.budget_us else req.deadline_ms / 1000.0
        self.bank_remaining = req.bank_remaining_us / 1e6
        self.wall_cap = req.wall_cap_ms / 1000.0 if req.wall_cap_ms else req.deadline_ms / 1000.0
        self._cpu0 = _process_time()


@dataclass(frozen=True, kw_only=True)
class SeatInfo:
    """What every seat learns when it opens, whatever the game."""

    #: Unique id of the match (or contest) within the host run.
    match_id: str
    #: This seat's index, 0-based.
    seat: int
    #: Display names of all seats, indexed by seat.
    players: tuple[str, ...]
    #: Per-move deadline in seconds.
    deadline: float
    #: Total clock per seat in seconds, 0.0 when the game has none.
    clock: float

    @staticmethod
    def _fields_of(req: bot_pb2.StartRequest) -> dict[str, Any]:
        return dict(
            match_id=req.match_id,
            seat=req.seat,
            players=tuple(req.players),
            deadline=req.deadline_ms / 1000.0,
            clock=req.clock_ms / 1000.0,
        )


class Result(enum.Enum):
    """A seat's result in a finished match."""

    UNSPECIFIED = 0
    WIN = 1
    LOSS = 2
    DRAW = 3


S = TypeVar("S")


@dataclass(frozen=True)
class Outcome(Generic[S]):
    """Handed to ``Bot.end`` when the host closes the seat."""

    result: Result
    #: The seat's score in the game's own unit.
    score: float
    #: The seat's state after the final observation.
    state: S


class BotBase:
    """Common hooks of every game's ``Bot`` base class.

    ``name``, ``author`` and ``version`` are what the bot tells the host (``Describe``); the
    class name is used when ``name`` is empty.
    """

    name: ClassVar[str] = ""
    author: ClassVar[str] = ""
    version: ClassVar[str] = ""

    #: Registry name of the game; set by each game's Bot base class.
    game: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__module__ == "__main__" and not SERVED[0]:
            _explain_at_exit()


_explained = [False]


def _explain_at_exit() -> None:
    """``python3 bot.py``: the file only defines classes, so say how to play it instead of
    exiting silently."""
    if _explained[0]:
        return
    _explained[0] = True

    def explain() -> None:
        sys.stderr.write(not_served_message(sys.argv[0] if sys.argv and sys.argv[0] else "bot.py"))

    atexit.register(explain)


class Seat:
    """One open seat: turns a game's observations into the user's state and its answer into an
    action. Each game module defines one subclass. Calls to one seat never overlap."""

    __slots__ = ("bot", "lock")

    game: ClassVar[str] = ""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.lock = threading.Lock()

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        """Fills ``resp``'s action, or raises InvalidAnswer or the user's exception."""
        raise NotImplementedError

    def end(self, req: bot_pb2.EndRequest) -> None:
        """Applies the final observation (if any) and calls the bot's ``end`` hook."""
        raise NotImplementedError

    def _call_end(self, req: bot_pb2.EndRequest, state: Any) -> None:
        hook = getattr(self.bot, "end", None)
        if hook is not None:
            hook(Outcome(Result(req.result) if req.result in (0, 1, 2, 3) else Result.UNSPECIFIED,
                         req.score, state))

