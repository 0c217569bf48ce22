from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RealtvDecision(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REALTV_DECISION_UNSPECIFIED: _ClassVar[RealtvDecision]
    REALTV_DECISION_ELIMINATION: _ClassVar[RealtvDecision]
    REALTV_DECISION_TIE: _ClassVar[RealtvDecision]
REALTV_DECISION_UNSPECIFIED: RealtvDecision
REALTV_DECISION_ELIMINATION: RealtvDecision
REALTV_DECISION_TIE: RealtvDecision

class RealtvSetup(_message.Message):
    __slots__ = ("id", "name", "strength", "phases", "players_per_island", "instance")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    PHASES_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_PER_ISLAND_FIELD_NUMBER: _ClassVar[int]
    INSTANCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    strength: int
    phases: int
    players_per_island: int
    instance: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., strength: _Optional[int] = ..., phases: _Optional[int] = ..., players_per_island: _Optional[int] = ..., instance: _Optional[int] = ...) -> None: ...

class RealtvVotes(_message.Message):
    __slots__ = ("first_vote", "tie_vote")
    FIRST_VOTE_FIELD_NUMBER: _ClassVar[int]
    TIE_VOTE_FIELD_NUMBER: _ClassVar[int]
    first_vote: str
    tie_vote: str
    def __init__(self, first_vote: _Optional[str] = ..., tie_vote: _Optional[str] = ...) -> None: ...

class RealtvPlayer(_message.Message):
    __slots__ = ("id", "name", "strength", "score", "previous_moves")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    STRENGTH_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_MOVES_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    strength: int
    score: float
    previous_moves: _containers.RepeatedCompositeFieldContainer[RealtvVotes]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., strength: _Optional[int] = ..., score: _Optional[float] = ..., previous_moves: _Optional[_Iterable[_Union[RealtvVotes, _Mapping]]] = ...) -> None: ...

class RealtvGameContext(_message.Message):
    __slots__ = ("total_bots", "total_humans", "phase_index")
    TOTAL_BOTS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_HUMANS_FIELD_NUMBER: _ClassVar[int]
    PHASE_INDEX_FIELD_NUMBER: _ClassVar[int]
    total_bots: int
    total_humans: int
    phase_index: int
    def __init__(self, total_bots: _Optional[int] = ..., total_humans: _Optional[int] = ..., phase_index: _Optional[int] = ...) -> None: ...

class RealtvObservation(_message.Message):
    __slots__ = ("decision", "island_index", "game", "active_players", "betrayers", "eliminated_players", "current_ties", "own_score", "own_id", "day")
    class ActivePlayersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: RealtvPlayer
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[RealtvPlayer, _Mapping]] = ...) -> None: ...
    class BetrayersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: RealtvPlayer
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[RealtvPlayer, _Mapping]] = ...) -> None: ...
    class EliminatedPlayersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: RealtvPlayer
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[RealtvPlayer, _Mapping]] = ...) -> None: ...
    class CurrentTiesEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: RealtvPlayer
        def __init__(self, key: _Optional[str] = ..., value: _Optional[_Union[RealtvPlayer, _Mapping]] = ...) -> None: ...
    DECISION_FIELD_NUMBER: _ClassVar[int]
    ISLAND_INDEX_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BETRAYERS_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_TIES_FIELD_NUMBER: _ClassVar[int]
    OWN_SCORE_FIELD_NUMBER: _ClassVar[int]
    OWN_ID_FIELD_NUMBER: _ClassVar[int]
    DAY_FIELD_NUMBER: _ClassVar[int]
    decision: RealtvDecision
    island_index: int
    game: RealtvGameContext
    active_players: _containers.MessageMap[str, RealtvPlayer]
    betrayers: _containers.MessageMap[str, RealtvPlayer]
    eliminated_players: _containers.MessageMap[str, RealtvPlayer]
    current_ties: _containers.MessageMap[str, RealtvPlayer]
    own_score: float
    own_id: str
    day: int
    def __init__(self, decision: _Optional[_Union[RealtvDecision, str]] = ..., island_index: _Optional[int] = ..., game: _Optional[_Union[RealtvGameContext, _Mapping]] = ..., active_players: _Optional[_Mapping[str, RealtvPlayer]] = ..., betrayers: _Optional[_Mapping[str, RealtvPlayer]] = ..., eliminated_players: _Optional[_Mapping[str, RealtvPlayer]] = ..., current_ties: _Optional[_Mapping[str, RealtvPlayer]] = ..., own_score: _Optional[float] = ..., own_id: _Optional[str] = ..., day: _Optional[int] = ...) -> None: ...

class RealtvAction(_message.Message):
    __slots__ = ("vote_id",)
    VOTE_ID_FIELD_NUMBER: _ClassVar[int]
    vote_id: str
    def __init__(self, vote_id: _Optional[str] = ...) -> None: ...
