"""Seats: the bots of a game as the referee reaches them.

:mod:`.spec` says what a bot is (:class:`BotSpec`, its :class:`BotKind`); :mod:`.transports`
makes its connection (:mod:`.local` in-process, :mod:`.remote` gRPC over TCP or a Unix socket,
launching a :mod:`.process` first when the referee runs the bot); :mod:`.handle` keeps one bot
started; :mod:`.errors` is what can go wrong, all under :class:`SeatError`.
"""

from .connection import Answer, BotIdentity, Connection, Key
from .errors import ConnectionLost, HandshakeError, SeatError, SeatTimeout
from .handle import MAX_RESTARTS, BotHandle, start_all
from .local import LocalConnection, load_bot_class
from .process import BotProcess, free_port, stop_group
from .remote import Dispatcher, RemoteConnection, wait_healthy
from .spec import SUBMISSION, BotKind, BotSpec, BotSpecError

__all__ = [
    "MAX_RESTARTS",
    "SUBMISSION",
    "Answer",
    "BotHandle",
    "BotIdentity",
    "BotKind",
    "BotProcess",
    "BotSpec",
    "BotSpecError",
    "Connection",
    "ConnectionLost",
    "Dispatcher",
    "HandshakeError",
    "Key",
    "LocalConnection",
    "RemoteConnection",
    "SeatError",
    "SeatTimeout",
    "free_port",
    "load_bot_class",
    "start_all",
    "stop_group",
    "wait_healthy",
]
