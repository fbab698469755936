"""The services any caller may use without a token (health and reflection) hold few of the referee's calls.

Their streams (health ``Watch``, reflection's ``ServerReflectionInfo``) stay open as long as the caller
likes, and the server runs at most ``MAX_CONCURRENT_RPCS`` calls at once: without a bound, anyone who
can reach the port would hold them all and the referee would refuse every call with a token.
"""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from typing import Any

import grpc

MAX_TOKENLESS_STREAMS = 32
"""Streams of the token-less services open at once, from every caller."""
_BEHAVIOURS = ("unary_stream", "stream_unary", "stream_stream")


class TokenlessStreams(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Refuses a stream of ``services`` past :data:`MAX_TOKENLESS_STREAMS` open at once (RESOURCE_EXHAUSTED)."""

    def __init__(self, services: Collection[str]) -> None:
        self._services = set(services)
        self._open = 0

    async def intercept_service(self, continuation: Callable[[Any], Awaitable[Any]], details: Any) -> Any:
        handler = await continuation(details)
        service = details.method.lstrip("/").partition("/")[0]
        if handler is None or service not in self._services:
            return handler
        for kind in _BEHAVIOURS:
            behaviour = getattr(handler, kind)
            if behaviour is not None:
                return handler._replace(**{kind: self._counted(behaviour)})
        return handler

    @contextlib.asynccontextmanager
    async def _slot(self, context: Any) -> AsyncIterator[None]:
        if self._open >= MAX_TOKENLESS_STREAMS:
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                f"{MAX_TOKENLESS_STREAMS} health and reflection streams are open already; try again later",
            )
        self._open += 1
        try:
            yield
        finally:
            self._open -= 1

    def _counted(self, behaviour: Callable[..., Any]) -> Callable[..., Any]:
        if inspect.isasyncgenfunction(behaviour):

            async def streamed(request: Any, context: Any) -> AsyncIterator[Any]:
                async with self._slot(context):
                    async for reply in behaviour(request, context):
                        yield reply

            return streamed

        async def called(request: Any, context: Any) -> Any:
            async with self._slot(context):
                return await behaviour(request, context)

        return called
