from arena_sdk._pb.arena.v1 import bot_pb2 as _bot_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class StdioRequest(_message.Message):
    __slots__ = ("describe", "start", "act", "end")
    DESCRIBE_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    ACT_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    describe: _bot_pb2.DescribeRequest
    start: _bot_pb2.StartRequest
    act: _bot_pb2.ActRequest
    end: _bot_pb2.EndRequest
    def __init__(self, describe: _Optional[_Union[_bot_pb2.DescribeRequest, _Mapping]] = ..., start: _Optional[_Union[_bot_pb2.StartRequest, _Mapping]] = ..., act: _Optional[_Union[_bot_pb2.ActRequest, _Mapping]] = ..., end: _Optional[_Union[_bot_pb2.EndRequest, _Mapping]] = ...) -> None: ...
