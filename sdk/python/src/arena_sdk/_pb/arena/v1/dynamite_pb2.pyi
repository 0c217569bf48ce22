from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DynamiteMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DYNAMITE_MOVE_UNSPECIFIED: _ClassVar[DynamiteMove]
    DYNAMITE_MOVE_ROCK: _ClassVar[DynamiteMove]
    DYNAMITE_MOVE_PAPER: _ClassVar[DynamiteMove]
    DYNAMITE_MOVE_SCISSORS: _ClassVar[DynamiteMove]
    DYNAMITE_MOVE_DYNAMITE: _ClassVar[DynamiteMove]
    DYNAMITE_MOVE_WATER: _ClassVar[DynamiteMove]
DYNAMITE_MOVE_UNSPECIFIED: DynamiteMove
DYNAMITE_MOVE_ROCK: DynamiteMove
DYNAMITE_MOVE_PAPER: DynamiteMove
DYNAMITE_MOVE_SCISSORS: DynamiteMove
DYNAMITE_MOVE_DYNAMITE: DynamiteMove
DYNAMITE_MOVE_WATER: DynamiteMove

class DynamiteSetup(_message.Message):
    __slots__ = ("target_score", "max_rounds", "dynamite_per_player")
    TARGET_SCORE_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    DYNAMITE_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    target_score: int
    max_rounds: int
    dynamite_per_player: int
    def __init__(self, target_score: _Optional[int] = ..., max_rounds: _Optional[int] = ..., dynamite_per_player: _Optional[int] = ...) -> None: ...

class DynamiteObservation(_message.Message):
    __slots__ = ("round", "last_own", "last_opponent", "own_score", "opponent_score", "own_dynamite_left", "opponent_dynamite_left", "stake")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    LAST_OWN_FIELD_NUMBER: _ClassVar[int]
    LAST_OPPONENT_FIELD_NUMBER: _ClassVar[int]
    OWN_SCORE_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_SCORE_FIELD_NUMBER: _ClassVar[int]
    OWN_DYNAMITE_LEFT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_DYNAMITE_LEFT_FIELD_NUMBER: _ClassVar[int]
    STAKE_FIELD_NUMBER: _ClassVar[int]
    round: int
    last_own: DynamiteMove
    last_opponent: DynamiteMove
    own_score: int
    opponent_score: int
    own_dynamite_left: int
    opponent_dynamite_left: int
    stake: int
    def __init__(self, round: _Optional[int] = ..., last_own: _Optional[_Union[DynamiteMove, str]] = ..., last_opponent: _Optional[_Union[DynamiteMove, str]] = ..., own_score: _Optional[int] = ..., opponent_score: _Optional[int] = ..., own_dynamite_left: _Optional[int] = ..., opponent_dynamite_left: _Optional[int] = ..., stake: _Optional[int] = ...) -> None: ...

class DynamiteAction(_message.Message):
    __slots__ = ("move",)
    MOVE_FIELD_NUMBER: _ClassVar[int]
    move: DynamiteMove
    def __init__(self, move: _Optional[_Union[DynamiteMove, str]] = ...) -> None: ...
