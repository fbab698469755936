"""``rage referee serve``: a contest's gRPC service and its live pages, one process until SIGTERM or SIGINT.

Then it stops gracefully: health says NOT_SERVING, running leagues get ``grace`` seconds to finish
the games in progress (they stay marked running and resume at the next start), Watch streams end
with UNAVAILABLE, then the server stops.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable

from grpc_health.v1 import health

from .hosted.contest import Contest
from .hosted.server import Settings, create_server
from .report.live import bound_port, start_http


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
