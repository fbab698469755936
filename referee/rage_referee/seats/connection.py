"""The connection interface: every game the referee runs with one bot, whatever carries the messages.

A :class:`Connection` carries encoded ``GameMessage`` values (start, events held since the seat's
last message, then a request or the end); ``decide`` never waits longer than the timeout it is
given, counted from when the request went out. The transports (:mod:`.transports`) make one for each kind of bot.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from rage_sdk.pb import bot_pb2 as pb


@dataclass(frozen=True)
class BotIdentity:
    name: str
    version: str


Key = tuple[int, int]
"""A decision request on a connection: (game, seq)."""


@dataclass(frozen=True, slots=True)
class Answer:
    """A bot's decision, and the seconds it is charged with: from when its request went out to when the
    answer came in, so the referee's own work and waits before and after are not the bot's."""

    decision: pb.Decision
    seconds: float


class Connection(ABC):
    """Every game the referee runs with one bot."""

    identity: BotIdentity | None = None

    @abstractmethod
    async def open(self) -> BotIdentity:
        """Greet the bot and open the stream; :class:`~.errors.HandshakeError` if it cannot be done."""

    @abstractmethod
    def send(self, message: bytes) -> None:
        """Send an encoded ``GameMessage`` that asks for nothing (a game's end)."""

    @abstractmethod
    async def decide(self, message: bytes, key: Key, timeout: float | None) -> Answer:
        """Send an encoded ``GameMessage`` whose decision request is ``key`` and wait for the answer.

        :raises SeatTimeout: no answer within ``timeout`` seconds of the request's going out.
        :raises ConnectionLost: the stream is gone.
        """

    @abstractmethod
    async def close(self) -> None:
        """End the stream (pending decisions fail with :class:`~.errors.ConnectionLost`)."""

    @property
    @abstractmethod
    def alive(self) -> bool: ...

    @property
    def failure(self) -> str | None:
        """How the connection was lost, once it is (``stream failed: ...``)."""
        return None
