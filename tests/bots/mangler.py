"""Sends one stream message that does not decode as a ``BotBatch`` (in place of its answer to the MANGLE-th
decision request this process sees), then answers every request properly with the first legal action.

    python tests/bots/mangler.py --port N
"""

from __future__ import annotations

from collections.abc import Iterator

import grpc
from botbase import SERVICE_NAME, FirstLegalBot, TamperingServicer, serve_servicer
from rage_sdk.bot import BotRunner
from rage_sdk.pb import bot_pb2 as pb

MANGLE = 10
UNDECODABLE = b"\x0a\xff\xff\xff\xff\x0f"
"""Field 1 (decisions), length-delimited, with a length far past the end of the message."""


class ManglerServicer(TamperingServicer):
    """Answers as :class:`FirstLegalBot`; its ``Play`` yields raw bytes, so one of them can be garbage."""

    def __init__(self) -> None:
        super().__init__("mangler")
        self.seen = 0

    def Play(self, request_iterator: Iterator[pb.RefereeBatch], context: grpc.ServicerContext) -> Iterator[bytes]:  # type: ignore[override]
        runner = BotRunner(FirstLegalBot)
        for batch in request_iterator:
            decisions = runner.handle(list(batch.messages))
            if not decisions:
                continue
            before, self.seen = self.seen, self.seen + len(decisions)
            if before < MANGLE <= self.seen:
                yield UNDECODABLE
            else:
                yield pb.BotBatch(decisions=decisions).SerializeToString()


def raw_handler(servicer: ManglerServicer) -> grpc.GenericRpcHandler:
    """The ``Bot`` service with ``Play``'s answers written as the servicer's bytes, unchecked."""
    return grpc.method_handlers_generic_handler(
        SERVICE_NAME,
        {
            "Hello": grpc.unary_unary_rpc_method_handler(
                servicer.Hello,
                request_deserializer=pb.HelloRequest.FromString,
                response_serializer=pb.HelloReply.SerializeToString,
            ),
            "Play": grpc.stream_stream_rpc_method_handler(
                servicer.Play, request_deserializer=pb.RefereeBatch.FromString, response_serializer=None
            ),
        },
    )


if __name__ == "__main__":
    servicer = ManglerServicer()
    serve_servicer(servicer, handler=raw_handler(servicer))
