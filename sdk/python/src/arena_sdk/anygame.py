"""Any game, by name, with no per-game code: the generic path.

Subclass :class:`Bot` and implement :meth:`Bot.act`, which sees the game's setup and each
observation as plain dicts (every field, by its proto name; enums by name) and returns the
action as a dict or its JSON text, exactly as a JSON-lines bot writes it::

    from arena_sdk import anygame

    class First(anygame.Bot):
        def act(self, state: anygame.State) -> dict:
            return {"move": "DYNAMITE_MOVE_ROCK"} if state.game == "dynamite" else {}

A bot plays every game of the protocol (``GAMES``, generated from the protos) unless it names
fewer in ``games``; a game added to the protocol is played as soon as the SDK is regenerated.
The per-game modules (:mod:`arena_sdk.dynamite`, ...) remain the idiomatic layer with each
game's history and helpers.
"""

from __future__ import annotations

import inspect
import json
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar, Sequence

from arena_sdk import _wire, loader
from arena_sdk._common import BotBase, Clock, InvalidAnswer, Outcome, Seat, SeatInfo, describe_value

if TYPE_CHECKING:
    from arena_sdk._pb.arena.v1 import bot_pb2

__all__ = ["Bot", "GAMES", "GAME_MESSAGES", "ENUMS", "MESSAGES", "Setup", "State", "Outcome", "to_dict"]

# The protocol's tables (generated from the protos; see arena_sdk._wire for their shapes).
GAMES = _wire.GAMES
GAME_MESSAGES = _wire.GAME_MESSAGES
ENUMS = _wire.ENUMS
MESSAGES = _wire.MESSAGES


def to_dict(type_name: str, msg: Any) -> dict[str, Any]:
    """The message ``msg`` of type ``type_name`` (a name of the protocol's messages) as a dict
    with every field by its proto name: enums by name, absent messages as None."""
    out: dict[str, Any] = {}
    for name, _json, kind, typ, label in _wire.MESSAGES[type_name]:
        v = getattr(msg, name)
        if label == "repeated":
            out[name] = [_value(kind, typ, x) for x in v]
        elif label == "map":
            out[name] = {k: _value(kind, typ, x) for k, x in v.items()}
        elif kind == "message":
            out[name] = to_dict(typ, v) if msg.HasField(name) else None
        else:
            out[name] = _value(kind, typ, v)
    return out


def _value(kind: str, typ: str, v: Any) -> Any:
    if kind == "enum":
        names = _wire.ENUMS[typ]
        return names[v] if 0 <= v < len(names) else names[0]
    if kind == "message":
        return to_dict(typ, v)
    return v


@dataclass(frozen=True, kw_only=True)
class Setup(SeatInfo):
    """A match's fixed setup: the seat's fields and the game's setup message as a dict."""

    game: str
    fields: dict[str, Any]


class State(Clock):
    """What the bot sees before a move. One object per seat, updated in place every move."""

    __slots__ = ("game", "setup", "observation")

    def __init__(self, setup: Setup) -> None:
        super().__init__()
        #: The game's registry name.
        self.game = setup.game
        self.setup = setup
        #: What changed since the seat's previous move (the game's observation message).
        self.observation: dict[str, Any] = {}


class Bot(BotBase):
    """Subclass this and implement :meth:`act`. A new instance plays each match."""

    #: The games this bot plays (default: every game of the protocol).
    games: ClassVar[Sequence[str]] = GAMES

    def start(self, setup: Setup) -> None:
        """Called once when the match opens, before the first move."""

    def act(self, state: State) -> dict[str, Any] | str:
        """Returns the action: a dict (or its JSON text) in the game's action message's shape."""
        raise NotImplementedError(f"{type(self).__name__} must implement act(self, state)")

    def end(self, outcome: Outcome[State]) -> None:
        """Called once when the match is over."""


class _Seat(Seat):
    __slots__ = ("state", "_act", "_observation", "_action")

    def __init__(self, bot: Bot, req: bot_pb2.StartRequest) -> None:
        super().__init__(bot)
        game = req.game
        setup_type, self._observation, self._action = _wire.GAME_MESSAGES[game]
        fields = to_dict(setup_type, getattr(req, game))
        setup = Setup(**SeatInfo._fields_of(req), game=game, fields=fields)
        self.state = State(setup)
        self._act = bot.act
        start = getattr(bot, "start", None)
        if start is not None:
            start(setup)

    def act(self, req: bot_pb2.ActRequest, resp: bot_pb2.ActResponse, now: float) -> None:
        from google.protobuf import json_format  # only a generic bot pays for it

        st = self.state
        if not req.HasField(st.game):
            raise InvalidAnswer(f"expected a {st.game} observation, got {req.WhichOneof('observation')}")
        st.observation = to_dict(self._observation, getattr(req, st.game))
        st._tick(req, now)
        a = self._act(st)
        try:
            if isinstance(a, (str, bytes)):
                a = json.loads(a)
            if not isinstance(a, dict):
                raise TypeError("not a dict")
            action = getattr(resp, st.game)
            action.SetInParent()
            json_format.ParseDict(a, action)
        except (ValueError, TypeError, json_format.ParseError) as e:
            raise InvalidAnswer(f"act() returned {describe_value(a)}, not a {self._action}: {e}") from None

    def end(self, req: bot_pb2.EndRequest) -> None:
        st = self.state
        if req.HasField(st.game):
            st.observation = to_dict(self._observation, getattr(req, st.game))
        self._call_end(req, st)


class _Detector(loader.Detector):
    """Classes that subclass :class:`Bot`, defined in the bot's own file: one entry per game
    they play."""

    looks_for = "  - a class subclassing arena_sdk.anygame.Bot that implements act(self, state) (any game)"

    def detect(self, bot: loader.BotFile, module: ModuleType) -> Sequence[loader.Entry]:
        if bot.class_name is not None:
            cls = getattr(module, bot.class_name, None)
            found = [cls] if isinstance(cls, type) and issubclass(cls, Bot) and cls is not Bot else []
        else:
            own = [o for n, o in vars(module).items()
                   if not n.startswith("_") and isinstance(o, type) and issubclass(o, Bot) and o is not Bot
                   and o.__module__ == module.__name__ and not inspect.isabstract(o)]
            found = [c for c in own if not any(o is not c and issubclass(o, c) for o in own)]
            if len(found) > 1:
                raise loader.several_bots(bot.path.name, "anygame", found)
        out = []
        for cls in found:
            unknown = [g for g in cls.games if g not in GAMES]
            if unknown:
                raise loader.LoadError(f"{cls.__name__}.games names {unknown}, not games of the protocol ({', '.join(GAMES)})")
            out += [loader.Entry(game=g, name=getattr(cls, "name", "") or cls.__name__, make=cls,
                                 author=cls.author, version=cls.version, style="anygame", seat=_Seat)
                    for g in cls.games]
        return out


# Importing this module (a bot file that uses it does) is what lets the loader find its bots.
if not any(isinstance(d, _Detector) for d in loader.DETECTORS):
    loader.register_detector(_Detector())
