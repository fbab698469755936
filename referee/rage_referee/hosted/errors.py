"""Failures of the hosted referee, typed by cause; each carries the gRPC status code it leaves with."""

from __future__ import annotations

import grpc
from rage_sdk.errors import RageError


class ContestError(RageError):
    """A request the referee refuses; the message is shown to the caller as it is."""

    code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION


class Unauthenticated(ContestError):
    """No token, or one the referee does not know."""

    code = grpc.StatusCode.UNAUTHENTICATED


class PermissionDenied(ContestError):
    """A known token asking for what it may not do."""

    code = grpc.StatusCode.PERMISSION_DENIED


class InvalidArgument(ContestError):
    """A malformed request: the message starts with the field."""

    code = grpc.StatusCode.INVALID_ARGUMENT

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field


class NotFound(ContestError):
    code = grpc.StatusCode.NOT_FOUND


class AlreadyExists(ContestError):
    code = grpc.StatusCode.ALREADY_EXISTS


class FailedPrecondition(ContestError):
    """Not possible in the current state (a league that is not paused cannot be resumed)."""

    code = grpc.StatusCode.FAILED_PRECONDITION


class ResourceExhausted(ContestError):
    """A limit of the referee reached (bots, watchers), or a watcher that fell behind."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unavailable(ContestError):
    """The referee is stopping."""

    code = grpc.StatusCode.UNAVAILABLE
