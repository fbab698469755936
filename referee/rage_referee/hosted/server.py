"""The referee server: ``rage.v1.Referee`` with the standard health service and server reflection.

``create_server`` returns the server and its port; :mod:`rage_referee.serve` runs it with the live
pages as one process.
"""

from __future__ import annotations

from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.server import bind

from ..seats.spec import seat_address
from .checks import MAX_REQUEST_BYTES
from .contest import Contest
from .decoding import UndecodableRequests
from .service import SERVICE_NAME, RefereeServicer
from .tokenless import TokenlessStreams

MAX_REPLY_BYTES = 16 * 1024 * 1024
MAX_METADATA_BYTES = 16 * 1024
MAX_CONCURRENT_RPCS = 500
OPTIONS = [
    ("grpc.max_receive_message_length", MAX_REQUEST_BYTES),
    ("grpc.max_send_message_length", MAX_REPLY_BYTES),
    ("grpc.max_metadata_size", MAX_METADATA_BYTES),
]


@dataclass(frozen=True)
class TlsFiles:
    """The server's certificate chain and private key, PEM."""

    cert: bytes
    key: bytes


async def create_server(
    contest: Contest,
    port: int = 0,
    host: str = "[::]",
    tls: TlsFiles | None = None,
    health_servicer: health.aio.HealthServicer | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Start serving ``contest`` with health and reflection; return the server and its port.

    :raises OSError: the port cannot be bound.
    """
    tokenless = TokenlessStreams((health.SERVICE_NAME, reflection.SERVICE_NAME))
    server = grpc.aio.server(
        interceptors=[UndecodableRequests(), tokenless], options=OPTIONS, maximum_concurrent_rpcs=MAX_CONCURRENT_RPCS
    )
    referee_pb2_grpc.add_RefereeServicer_to_server(RefereeServicer(contest), server)  # type: ignore[no-untyped-call]
    health_servicer = health_servicer or health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    services = (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(services, server)
    credentials = None if tls is None else grpc.ssl_server_credentials([(tls.key, tls.cert)])
    if ":" in host and not host.startswith("["):  # --host ::1, as written: gRPC needs [::1]
        host = f"[{host}]"
    bound = bind(server, f"{host}:{port}", credentials)
    contest.own_seats.add(seat_address(f"{host}:{bound}"))
    await server.start()
    for service in ("", SERVICE_NAME):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return server, bound
