from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class FingerMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FINGER_MOVE_UNSPECIFIED: _ClassVar[FingerMove]
    FINGER_MOVE_LEFT_TO_LEFT: _ClassVar[FingerMove]
    FINGER_MOVE_LEFT_TO_RIGHT: _ClassVar[FingerMove]
    FINGER_MOVE_RIGHT_TO_LEFT: _ClassVar[FingerMove]
    FINGER_MOVE_RIGHT_TO_RIGHT: _ClassVar[FingerMove]
    FINGER_MOVE_SWITCH: _ClassVar[FingerMove]
FINGER_MOVE_UNSPECIFIED: FingerMove
FINGER_MOVE_LEFT_TO_LEFT: FingerMove
FINGER_MOVE_LEFT_TO_RIGHT: FingerMove
FINGER_MOVE_RIGHT_TO_LEFT: FingerMove
FINGER_MOVE_RIGHT_TO_RIGHT: FingerMove
FINGER_MOVE_SWITCH: FingerMove

class FingerSetup(_message.Message):
    __slots__ = ("games", "max_rounds", "own_name", "opponent_name")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    OWN_NAME_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_NAME_FIELD_NUMBER: _ClassVar[int]
    games: int
    max_rounds: int
    own_name: str
    opponent_name: str
    def __init__(self, games: _Optional[int] = ..., max_rounds: _Optional[int] = ..., own_name: _Optional[str] = ..., opponent_name: _Optional[str] = ...) -> None: ...

class FingerAction(_message.Message):
    __slots__ = ("move", "switch_left", "switch_right")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    SWITCH_LEFT_FIELD_NUMBER: _ClassVar[int]
    SWITCH_RIGHT_FIELD_NUMBER: _ClassVar[int]
    move: FingerMove
    switch_left: int
    switch_right: int
    def __init__(self, move: _Optional[_Union[FingerMove, str]] = ..., switch_left: _Optional[int] = ..., switch_right: _Optional[int] = ...) -> None: ...

class FingerHistoryEntry(_message.Message):
    __slots__ = ("player", "action", "own")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    OWN_FIELD_NUMBER: _ClassVar[int]
    player: str
    action: FingerAction
    own: bool
    def __init__(self, player: _Optional[str] = ..., action: _Optional[_Union[FingerAction, _Mapping]] = ..., own: _Optional[bool] = ...) -> None: ...

class FingerObservation(_message.Message):
    __slots__ = ("game", "new_game", "starting_player", "round", "own_left", "own_right", "opponent_left", "opponent_right", "recent", "games_won", "games_lost", "games_both_lost", "started")
    GAME_FIELD_NUMBER: _ClassVar[int]
    NEW_GAME_FIELD_NUMBER: _ClassVar[int]
    STARTING_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    OWN_LEFT_FIELD_NUMBER: _ClassVar[int]
    OWN_RIGHT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_LEFT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_RIGHT_FIELD_NUMBER: _ClassVar[int]
    RECENT_FIELD_NUMBER: _ClassVar[int]
    GAMES_WON_FIELD_NUMBER: _ClassVar[int]
    GAMES_LOST_FIELD_NUMBER: _ClassVar[int]
    GAMES_BOTH_LOST_FIELD_NUMBER: _ClassVar[int]
    STARTED_FIELD_NUMBER: _ClassVar[int]
    game: int
    new_game: bool
    starting_player: str
    round: int
    own_left: int
    own_right: int
    opponent_left: int
    opponent_right: int
    recent: _containers.RepeatedCompositeFieldContainer[FingerHistoryEntry]
    games_won: int
    games_lost: int
    games_both_lost: int
    started: bool
    def __init__(self, game: _Optional[int] = ..., new_game: _Optional[bool] = ..., starting_player: _Optional[str] = ..., round: _Optional[int] = ..., own_left: _Optional[int] = ..., own_right: _Optional[int] = ..., opponent_left: _Optional[int] = ..., opponent_right: _Optional[int] = ..., recent: _Optional[_Iterable[_Union[FingerHistoryEntry, _Mapping]]] = ..., games_won: _Optional[int] = ..., games_lost: _Optional[int] = ..., games_both_lost: _Optional[int] = ..., started: _Optional[bool] = ...) -> None: ...
