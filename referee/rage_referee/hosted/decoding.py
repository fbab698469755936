"""Requests whose bytes do not decode get INVALID_ARGUMENT (gRPC's own answer is UNKNOWN, with a traceback
in the server's log).

A server interceptor gives every unary-request method a deserializer that turns a decoding failure
into a :class:`Undecodable` value, and a behaviour that refuses it before the servicer sees it.
"""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import grpc
from google.protobuf.message import DecodeError


@dataclass(frozen=True)
class Undecodable:
    problem: str


def _deserializer(decode: Callable[[bytes], Any]) -> Callable[[bytes], Any]:
    def tolerant(data: bytes) -> Any:
        try:
            return decode(data)
        except DecodeError as error:
            return Undecodable(str(error))

    return tolerant


async def _refuse(context: Any, request: Undecodable) -> None:
    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"request: does not decode: {request.problem}")


def _unary(behaviour: Callable[[Any, Any], Awaitable[Any]]) -> Callable[[Any, Any], Awaitable[Any]]:
    async def checked(request: Any, context: Any) -> Any:
        if isinstance(request, Undecodable):
            await _refuse(context, request)
        return await behaviour(request, context)

    return checked


def _streaming(behaviour: Callable[[Any, Any], AsyncIterator[Any]]) -> Callable[[Any, Any], AsyncIterator[Any]]:
    async def checked(request: Any, context: Any) -> AsyncIterator[Any]:
        if isinstance(request, Undecodable):
            await _refuse(context, request)
        async for reply in behaviour(request, context):
            yield reply

    return checked


def _writing(behaviour: Callable[[Any, Any], Awaitable[None]]) -> Callable[[Any, Any], Awaitable[None]]:
    """A streaming method that sends its replies with ``context.write`` (gRPC's health ``Watch``)."""

    async def checked(request: Any, context: Any) -> None:
        if isinstance(request, Undecodable):
            await _refuse(context, request)
        await behaviour(request, context)

    return checked


class UndecodableRequests(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    async def intercept_service(self, continuation: Callable[[Any], Awaitable[Any]], details: Any) -> Any:
        handler = await continuation(details)
        if handler is None or handler.request_streaming or handler.request_deserializer is None:
            return handler
        decode = _deserializer(handler.request_deserializer)
        if handler.unary_unary is not None:
            return handler._replace(request_deserializer=decode, unary_unary=_unary(handler.unary_unary))
        if handler.unary_stream is not None:
            method = handler.unary_stream
            checked = _streaming(method) if inspect.isasyncgenfunction(method) else _writing(method)
            return handler._replace(request_deserializer=decode, unary_stream=checked)
        return handler
