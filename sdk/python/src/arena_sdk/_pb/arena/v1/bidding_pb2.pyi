from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BiddingPlayer(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BIDDING_PLAYER_UNSPECIFIED: _ClassVar[BiddingPlayer]
    BIDDING_PLAYER_A: _ClassVar[BiddingPlayer]
    BIDDING_PLAYER_B: _ClassVar[BiddingPlayer]
BIDDING_PLAYER_UNSPECIFIED: BiddingPlayer
BIDDING_PLAYER_A: BiddingPlayer
BIDDING_PLAYER_B: BiddingPlayer

class BiddingSetup(_message.Message):
    __slots__ = ("games", "start_money", "max_rounds", "own_name", "opponent_name")
    GAMES_FIELD_NUMBER: _ClassVar[int]
    START_MONEY_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    OWN_NAME_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_NAME_FIELD_NUMBER: _ClassVar[int]
    games: int
    start_money: int
    max_rounds: int
    own_name: str
    opponent_name: str
    def __init__(self, games: _Optional[int] = ..., start_money: _Optional[int] = ..., max_rounds: _Optional[int] = ..., own_name: _Optional[str] = ..., opponent_name: _Optional[str] = ...) -> None: ...

class BiddingObservation(_message.Message):
    __slots__ = ("game", "new_game", "player", "own_money", "opponent_money", "start_money", "bottle_position", "has_last", "last_own_bid", "last_opponent_bid", "rounds_won", "rounds_lost", "draw_advantage", "round", "opponent_name", "games_won", "games_lost", "games_drawn")
    GAME_FIELD_NUMBER: _ClassVar[int]
    NEW_GAME_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    OWN_MONEY_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_MONEY_FIELD_NUMBER: _ClassVar[int]
    START_MONEY_FIELD_NUMBER: _ClassVar[int]
    BOTTLE_POSITION_FIELD_NUMBER: _ClassVar[int]
    HAS_LAST_FIELD_NUMBER: _ClassVar[int]
    LAST_OWN_BID_FIELD_NUMBER: _ClassVar[int]
    LAST_OPPONENT_BID_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_WON_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_LOST_FIELD_NUMBER: _ClassVar[int]
    DRAW_ADVANTAGE_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_WON_FIELD_NUMBER: _ClassVar[int]
    GAMES_LOST_FIELD_NUMBER: _ClassVar[int]
    GAMES_DRAWN_FIELD_NUMBER: _ClassVar[int]
    game: int
    new_game: bool
    player: BiddingPlayer
    own_money: int
    opponent_money: int
    start_money: int
    bottle_position: int
    has_last: bool
    last_own_bid: int
    last_opponent_bid: int
    rounds_won: int
    rounds_lost: int
    draw_advantage: bool
    round: int
    opponent_name: str
    games_won: int
    games_lost: int
    games_drawn: int
    def __init__(self, game: _Optional[int] = ..., new_game: _Optional[bool] = ..., player: _Optional[_Union[BiddingPlayer, str]] = ..., own_money: _Optional[int] = ..., opponent_money: _Optional[int] = ..., start_money: _Optional[int] = ..., bottle_position: _Optional[int] = ..., has_last: _Optional[bool] = ..., last_own_bid: _Optional[int] = ..., last_opponent_bid: _Optional[int] = ..., rounds_won: _Optional[int] = ..., rounds_lost: _Optional[int] = ..., draw_advantage: _Optional[bool] = ..., round: _Optional[int] = ..., opponent_name: _Optional[str] = ..., games_won: _Optional[int] = ..., games_lost: _Optional[int] = ..., games_drawn: _Optional[int] = ...) -> None: ...

class BiddingAction(_message.Message):
    __slots__ = ("bid",)
    BID_FIELD_NUMBER: _ClassVar[int]
    bid: int
    def __init__(self, bid: _Optional[int] = ...) -> None: ...
