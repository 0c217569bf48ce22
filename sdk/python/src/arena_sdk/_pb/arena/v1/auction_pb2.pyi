from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class AuctionSetup(_message.Message):
    __slots__ = ("artists_num", "required_count", "auction_items", "player_count", "player_names", "own_name", "start_money")
    ARTISTS_NUM_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_COUNT_FIELD_NUMBER: _ClassVar[int]
    AUCTION_ITEMS_FIELD_NUMBER: _ClassVar[int]
    PLAYER_COUNT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_NAMES_FIELD_NUMBER: _ClassVar[int]
    OWN_NAME_FIELD_NUMBER: _ClassVar[int]
    START_MONEY_FIELD_NUMBER: _ClassVar[int]
    artists_num: int
    required_count: int
    auction_items: _containers.RepeatedScalarFieldContainer[str]
    player_count: int
    player_names: _containers.RepeatedScalarFieldContainer[str]
    own_name: str
    start_money: int
    def __init__(self, artists_num: _Optional[int] = ..., required_count: _Optional[int] = ..., auction_items: _Optional[_Iterable[str]] = ..., player_count: _Optional[int] = ..., player_names: _Optional[_Iterable[str]] = ..., own_name: _Optional[str] = ..., start_money: _Optional[int] = ...) -> None: ...

class AuctionObservation(_message.Message):
    __slots__ = ("item_index", "finished", "bid_item", "bid_winner", "winning_bid", "wealth_table", "remain_time", "game_winner", "own_money", "item")
    class WealthTableEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    class RemainTimeEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: float
        def __init__(self, key: _Optional[str] = ..., value: _Optional[float] = ...) -> None: ...
    ITEM_INDEX_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    BID_ITEM_FIELD_NUMBER: _ClassVar[int]
    BID_WINNER_FIELD_NUMBER: _ClassVar[int]
    WINNING_BID_FIELD_NUMBER: _ClassVar[int]
    WEALTH_TABLE_FIELD_NUMBER: _ClassVar[int]
    REMAIN_TIME_FIELD_NUMBER: _ClassVar[int]
    GAME_WINNER_FIELD_NUMBER: _ClassVar[int]
    OWN_MONEY_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item_index: int
    finished: bool
    bid_item: str
    bid_winner: str
    winning_bid: int
    wealth_table: _containers.ScalarMap[str, int]
    remain_time: _containers.ScalarMap[str, float]
    game_winner: str
    own_money: int
    item: str
    def __init__(self, item_index: _Optional[int] = ..., finished: _Optional[bool] = ..., bid_item: _Optional[str] = ..., bid_winner: _Optional[str] = ..., winning_bid: _Optional[int] = ..., wealth_table: _Optional[_Mapping[str, int]] = ..., remain_time: _Optional[_Mapping[str, float]] = ..., game_winner: _Optional[str] = ..., own_money: _Optional[int] = ..., item: _Optional[str] = ...) -> None: ...

class AuctionAction(_message.Message):
    __slots__ = ("bid",)
    BID_FIELD_NUMBER: _ClassVar[int]
    bid: float
    def __init__(self, bid: _Optional[float] = ...) -> None: ...
