"""The referee server: ``rage.v1.Referee`` with the standard health service and server reflection.

``create_server`` returns the server and its port; ``serve`` runs until SIGTERM or SIGINT, then
stops gracefully: health says NOT_SERVING, running leagues get ``grace`` seconds to finish the games
in progress (they stay marked running and resume at the next start), Watch streams end with
UNAVAILABLE, then the server stops.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.server import bind

from ..runner.settings import LOCAL, RunnerSettings
from .addresses import AllowList
from .checks import MAX_REQUEST_BYTES
from .contest import Contest
from .decoding import UndecodableRequests
from .service import SERVICE_NAME, RefereeServicer
from .submissions import SandboxPolicy

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


@dataclass(frozen=True)
class Settings:
    db_url: str
    admin_token: str
    entry_token: str
    allow: AllowList
    port: int = 50050
    host: str = "[::]"
    tls: TlsFiles | None = None
    grace: float = 5.0
    http_port: int | None = None
    """Serve the leagues' pages over HTTP on this port too (:mod:`rage_referee.report.live`)."""
    submissions_dir: Path | None = None
    """Where submitted bots' versions are kept."""
    policy: SandboxPolicy | None = None
    """How submitted bots run: the sandbox, or none (``--no-sandbox``); probed at first use when not given."""
    runner: RunnerSettings = LOCAL
    """Where the leagues' games are played: this machine, or a Ray cluster (``--ray``)."""


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
    server = grpc.aio.server(
        interceptors=[UndecodableRequests()], options=OPTIONS, maximum_concurrent_rpcs=MAX_CONCURRENT_RPCS
    )
    referee_pb2_grpc.add_RefereeServicer_to_server(RefereeServicer(contest), server)  # type: ignore[no-untyped-call]
    health_servicer = health_servicer or health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    services = (SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(services, server)
    credentials = None if tls is None else grpc.ssl_server_credentials([(tls.key, tls.cert)])
    bare_ipv6 = ":" in host and not host.startswith("[")  # --host ::1, as written: gRPC needs [::1]
    bound = bind(server, f"[{host}]:{port}" if bare_ipv6 else f"{host}:{port}", credentials)
    await server.start()
    for service in ("", SERVICE_NAME):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    return server, bound


async def serve(settings: Settings, ready: Callable[[int, int | None], None] | None = None) -> None:
    """Serve until SIGTERM or SIGINT; ``ready`` is told the port, and the pages' port (``http_port``) if
    served, once serving and leagues resumed.

    :raises rage_referee.league.store.StoreError: the database cannot be used.
    :raises rage_referee.runner.base.RunnerError: the Ray cluster of ``settings.runner`` cannot be reached.
    :raises OSError: the port cannot be bound.
    """
    with settings.runner.session():  # connected before the signal handlers go in, so they are the server's
        await _serve(settings, ready)


async def _serve(settings: Settings, ready: Callable[[int, int | None], None] | None) -> None:
    contest = Contest.open(
        settings.db_url,
        settings.admin_token,
        settings.entry_token,
        settings.allow,
        settings.submissions_dir,
        settings.policy,
        settings.runner,
    )
    health_servicer = health.aio.HealthServicer()
    try:
        server, port = await create_server(contest, settings.port, settings.host, settings.tls, health_servicer)
    except BaseException:
        contest.close()
        raise
    pages = None
    if settings.http_port is not None:
        from ..report.live import bound_port, start_http

        try:
            pages = await start_http(contest, settings.http_port, settings.host)
        except BaseException:
            await server.stop(0)
            contest.close()
            raise
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopping.set)
    try:
        await contest.leagues.resume_running()
        if ready is not None:
            ready(port, None if pages is None else bound_port(pages[0]))
        await stopping.wait()
    finally:
        await health_servicer.enter_graceful_shutdown()
        if pages is not None:
            pages[0].should_exit = True
        await contest.leagues.close(settings.grace)
        contest.hub.shutdown()
        await server.stop(settings.grace)
        if pages is not None:
            await pages[1]
        contest.close()
