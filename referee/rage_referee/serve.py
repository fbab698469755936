"""``rage referee serve``: a contest's gRPC service and its live pages, one process until SIGTERM or SIGINT.

Then it stops gracefully: health says NOT_SERVING, running leagues get ``grace`` seconds to finish
the games in progress (they stay marked running and resume at the next start), Watch streams end
with UNAVAILABLE, then the server stops.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from grpc_health.v1 import health

from .hosted.addresses import AllowList
from .hosted.contest import Contest
from .hosted.server import TlsFiles, create_server
from .hosted.submissions import SandboxPolicy
from .report.front import Limits
from .report.live import bound_port, start_http
from .runner.settings import LOCAL, RunnerSettings


@dataclass(frozen=True)
class Settings:
    """What ``rage referee serve`` serves: the contest's database and tokens, its ports, the pages' limits,
    how submitted bots are built and run, and where the games are played."""

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
    http_limits: Limits = field(default_factory=Limits)
    """How many connections the pages take, in all and from one address, and how long a request's headers may take."""
    submissions_dir: Path | None = None
    """Where submitted bots' versions are kept."""
    policy: SandboxPolicy | None = None
    """How submitted bots run: the sandbox, or none (``--no-sandbox``); probed at first use when not given."""
    runner: RunnerSettings = LOCAL
    """Where the leagues' games are played: this machine, or a Ray cluster (``--ray``)."""
    build_slots: int = 1
    """Submitted versions built at once (``--build-slots``); the others wait in turn by entrant."""


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
        settings.build_slots,
    )
    health_servicer = health.aio.HealthServicer()
    try:
        server, port = await create_server(contest, settings.port, settings.host, settings.tls, health_servicer)
    except BaseException:
        contest.close()
        raise
    pages = None
    if settings.http_port is not None:
        try:
            pages = await start_http(contest, settings.http_port, settings.host, settings.http_limits)
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
