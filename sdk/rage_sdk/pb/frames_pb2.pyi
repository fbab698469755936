from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable
from typing import ClassVar as _ClassVar, Optional as _Optional

DESCRIPTOR: _descriptor.FileDescriptor

class RefereeBatchFrames(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedScalarFieldContainer[bytes]
    def __init__(self, messages: _Optional[_Iterable[bytes]] = ...) -> None: ...

class GameMessageFrames(_message.Message):
    __slots__ = ("game", "start", "events", "request", "end")
    GAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    game: int
    start: bytes
    events: _containers.RepeatedScalarFieldContainer[bytes]
    request: bytes
    end: bytes
    def __init__(self, game: _Optional[int] = ..., start: _Optional[bytes] = ..., events: _Optional[_Iterable[bytes]] = ..., request: _Optional[bytes] = ..., end: _Optional[bytes] = ...) -> None: ...
