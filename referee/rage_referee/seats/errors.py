"""What can go wrong with a seat's bot: one tree, so a game catches :class:`SeatError` and charges a fault."""

from __future__ import annotations

from rage_sdk.errors import RageError

from ..faults import FaultKind


class SeatError(RageError):
    """The seat's bot did not give a decision; ``kind`` is the fault it is charged with."""

    exit_code = 1

    kind: FaultKind = FaultKind.CRASHED


class SeatTimeout(SeatError):
    """No decision in time."""

    kind = FaultKind.TIMEOUT


class ConnectionLost(SeatError):
    """The bot's stream ended or failed; the message says how, ``kind`` what fault that is for the seat."""

    def __init__(self, why: str, kind: FaultKind = FaultKind.CRASHED) -> None:
        super().__init__(why)
        self.kind = kind


class HandshakeError(SeatError):
    """The bot could not be started or greeted, or speaks another protocol version."""
