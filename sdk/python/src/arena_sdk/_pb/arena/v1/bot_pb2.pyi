from arena_sdk._pb.arena.v1 import auction_pb2 as _auction_pb2
from arena_sdk._pb.arena.v1 import bidding_pb2 as _bidding_pb2
from arena_sdk._pb.arena.v1 import dynamite_pb2 as _dynamite_pb2
from arena_sdk._pb.arena.v1 import finger_pb2 as _finger_pb2
from arena_sdk._pb.arena.v1 import realtv_pb2 as _realtv_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClockMode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_MODE_UNSPECIFIED: _ClassVar[ClockMode]
    CLOCK_MODE_WALL: _ClassVar[ClockMode]
    CLOCK_MODE_CPU: _ClassVar[ClockMode]

class BotErrorKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BOT_ERROR_KIND_UNSPECIFIED: _ClassVar[BotErrorKind]
    BOT_ERROR_KIND_EXCEPTION: _ClassVar[BotErrorKind]
    BOT_ERROR_KIND_INVALID_ANSWER: _ClassVar[BotErrorKind]

class Result(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESULT_UNSPECIFIED: _ClassVar[Result]
    RESULT_WIN: _ClassVar[Result]
    RESULT_LOSS: _ClassVar[Result]
    RESULT_DRAW: _ClassVar[Result]
CLOCK_MODE_UNSPECIFIED: ClockMode
CLOCK_MODE_WALL: ClockMode
CLOCK_MODE_CPU: ClockMode
BOT_ERROR_KIND_UNSPECIFIED: BotErrorKind
BOT_ERROR_KIND_EXCEPTION: BotErrorKind
BOT_ERROR_KIND_INVALID_ANSWER: BotErrorKind
RESULT_UNSPECIFIED: Result
RESULT_WIN: Result
RESULT_LOSS: Result
RESULT_DRAW: Result

class DescribeRequest(_message.Message):
    __slots__ = ("host_version",)
    HOST_VERSION_FIELD_NUMBER: _ClassVar[int]
    host_version: str
    def __init__(self, host_version: _Optional[str] = ...) -> None: ...

class DescribeResponse(_message.Message):
    __slots__ = ("name", "author", "version", "games", "sdk", "lanes")
    NAME_FIELD_NUMBER: _ClassVar[int]
    AUTHOR_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    SDK_FIELD_NUMBER: _ClassVar[int]
    LANES_FIELD_NUMBER: _ClassVar[int]
    name: str
    author: str
    version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    sdk: str
    lanes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., author: _Optional[str] = ..., version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., sdk: _Optional[str] = ..., lanes: _Optional[_Iterable[str]] = ...) -> None: ...

class StartRequest(_message.Message):
    __slots__ = ("match_id", "seat", "game", "players", "deadline_ms", "clock_ms", "clock_mode", "bank_ms", "wall_cap_ms", "dynamite", "finger", "bidding", "auction", "realtv")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MODE_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    WALL_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    DYNAMITE_FIELD_NUMBER: _ClassVar[int]
    FINGER_FIELD_NUMBER: _ClassVar[int]
    BIDDING_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    REALTV_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    game: str
    players: _containers.RepeatedScalarFieldContainer[str]
    deadline_ms: int
    clock_ms: int
    clock_mode: ClockMode
    bank_ms: int
    wall_cap_ms: int
    dynamite: _dynamite_pb2.DynamiteSetup
    finger: _finger_pb2.FingerSetup
    bidding: _bidding_pb2.BiddingSetup
    auction: _auction_pb2.AuctionSetup
    realtv: _realtv_pb2.RealtvSetup
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., game: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., deadline_ms: _Optional[int] = ..., clock_ms: _Optional[int] = ..., clock_mode: _Optional[_Union[ClockMode, str]] = ..., bank_ms: _Optional[int] = ..., wall_cap_ms: _Optional[int] = ..., dynamite: _Optional[_Union[_dynamite_pb2.DynamiteSetup, _Mapping]] = ..., finger: _Optional[_Union[_finger_pb2.FingerSetup, _Mapping]] = ..., bidding: _Optional[_Union[_bidding_pb2.BiddingSetup, _Mapping]] = ..., auction: _Optional[_Union[_auction_pb2.AuctionSetup, _Mapping]] = ..., realtv: _Optional[_Union[_realtv_pb2.RealtvSetup, _Mapping]] = ...) -> None: ...

class StartResponse(_message.Message):
    __slots__ = ("error",)
    ERROR_FIELD_NUMBER: _ClassVar[int]
    error: str
    def __init__(self, error: _Optional[str] = ...) -> None: ...

class ActRequest(_message.Message):
    __slots__ = ("match_id", "seat", "step", "deadline_ms", "clock_remaining_ms", "clock_mode", "budget_us", "bank_remaining_us", "wall_cap_ms", "dynamite", "finger", "bidding", "auction", "realtv")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_REMAINING_MS_FIELD_NUMBER: _ClassVar[int]
    CLOCK_MODE_FIELD_NUMBER: _ClassVar[int]
    BUDGET_US_FIELD_NUMBER: _ClassVar[int]
    BANK_REMAINING_US_FIELD_NUMBER: _ClassVar[int]
    WALL_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    DYNAMITE_FIELD_NUMBER: _ClassVar[int]
    FINGER_FIELD_NUMBER: _ClassVar[int]
    BIDDING_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    REALTV_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    step: int
    deadline_ms: int
    clock_remaining_ms: int
    clock_mode: ClockMode
    budget_us: int
    bank_remaining_us: int
    wall_cap_ms: int
    dynamite: _dynamite_pb2.DynamiteObservation
    finger: _finger_pb2.FingerObservation
    bidding: _bidding_pb2.BiddingObservation
    auction: _auction_pb2.AuctionObservation
    realtv: _realtv_pb2.RealtvObservation
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., step: _Optional[int] = ..., deadline_ms: _Optional[int] = ..., clock_remaining_ms: _Optional[int] = ..., clock_mode: _Optional[_Union[ClockMode, str]] = ..., budget_us: _Optional[int] = ..., bank_remaining_us: _Optional[int] = ..., wall_cap_ms: _Optional[int] = ..., dynamite: _Optional[_Union[_dynamite_pb2.DynamiteObservation, _Mapping]] = ..., finger: _Optional[_Union[_finger_pb2.FingerObservation, _Mapping]] = ..., bidding: _Optional[_Union[_bidding_pb2.BiddingObservation, _Mapping]] = ..., auction: _Optional[_Union[_auction_pb2.AuctionObservation, _Mapping]] = ..., realtv: _Optional[_Union[_realtv_pb2.RealtvObservation, _Mapping]] = ...) -> None: ...

class ActResponse(_message.Message):
    __slots__ = ("step", "match_id", "seat", "dynamite", "finger", "bidding", "auction", "realtv", "error")
    STEP_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DYNAMITE_FIELD_NUMBER: _ClassVar[int]
    FINGER_FIELD_NUMBER: _ClassVar[int]
    BIDDING_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    REALTV_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    step: int
    match_id: str
    seat: int
    dynamite: _dynamite_pb2.DynamiteAction
    finger: _finger_pb2.FingerAction
    bidding: _bidding_pb2.BiddingAction
    auction: _auction_pb2.AuctionAction
    realtv: _realtv_pb2.RealtvAction
    error: BotError
    def __init__(self, step: _Optional[int] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., dynamite: _Optional[_Union[_dynamite_pb2.DynamiteAction, _Mapping]] = ..., finger: _Optional[_Union[_finger_pb2.FingerAction, _Mapping]] = ..., bidding: _Optional[_Union[_bidding_pb2.BiddingAction, _Mapping]] = ..., auction: _Optional[_Union[_auction_pb2.AuctionAction, _Mapping]] = ..., realtv: _Optional[_Union[_realtv_pb2.RealtvAction, _Mapping]] = ..., error: _Optional[_Union[BotError, _Mapping]] = ...) -> None: ...

class BotError(_message.Message):
    __slots__ = ("kind", "message", "traceback")
    KIND_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    TRACEBACK_FIELD_NUMBER: _ClassVar[int]
    kind: BotErrorKind
    message: str
    traceback: str
    def __init__(self, kind: _Optional[_Union[BotErrorKind, str]] = ..., message: _Optional[str] = ..., traceback: _Optional[str] = ...) -> None: ...

class ActStreamRequest(_message.Message):
    __slots__ = ("act",)
    ACT_FIELD_NUMBER: _ClassVar[int]
    act: ActRequest
    def __init__(self, act: _Optional[_Union[ActRequest, _Mapping]] = ...) -> None: ...

class ActStreamResponse(_message.Message):
    __slots__ = ("act",)
    ACT_FIELD_NUMBER: _ClassVar[int]
    act: ActResponse
    def __init__(self, act: _Optional[_Union[ActResponse, _Mapping]] = ...) -> None: ...

class EndRequest(_message.Message):
    __slots__ = ("match_id", "seat", "result", "score", "dynamite", "finger", "bidding", "auction", "realtv")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    DYNAMITE_FIELD_NUMBER: _ClassVar[int]
    FINGER_FIELD_NUMBER: _ClassVar[int]
    BIDDING_FIELD_NUMBER: _ClassVar[int]
    AUCTION_FIELD_NUMBER: _ClassVar[int]
    REALTV_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    result: Result
    score: float
    dynamite: _dynamite_pb2.DynamiteObservation
    finger: _finger_pb2.FingerObservation
    bidding: _bidding_pb2.BiddingObservation
    auction: _auction_pb2.AuctionObservation
    realtv: _realtv_pb2.RealtvObservation
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., result: _Optional[_Union[Result, str]] = ..., score: _Optional[float] = ..., dynamite: _Optional[_Union[_dynamite_pb2.DynamiteObservation, _Mapping]] = ..., finger: _Optional[_Union[_finger_pb2.FingerObservation, _Mapping]] = ..., bidding: _Optional[_Union[_bidding_pb2.BiddingObservation, _Mapping]] = ..., auction: _Optional[_Union[_auction_pb2.AuctionObservation, _Mapping]] = ..., realtv: _Optional[_Union[_realtv_pb2.RealtvObservation, _Mapping]] = ...) -> None: ...

class EndResponse(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...
