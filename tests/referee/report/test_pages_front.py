"""The live pages' port holds under abuse (:mod:`rage_referee.report.front`):

- a connection that sends no request's headers within the header timeout is closed;
- connections past the cap from one address are closed as they come, in one log line, with no
  traceback; another address is served meanwhile, and so are the referee's gRPC calls;
- ``rage referee serve`` takes the caps and the header timeout as options.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from rage_referee.hosted.server import create_server
from rage_referee.report.front import CpuShare, Limits
from rage_referee.seats import free_port

from tests.helpers.report import Live, live_contest
from tests.referee.report.test_report_live import referee_serving

LIMITS = Limits(max_connections=100, max_per_address=20, header_timeout=1.0, idle_timeout=1.0)


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    with live_contest(tmp_path, [], shown=0, limits=LIMITS) as served:
        yield served


def connect(base: str, source: str = "127.0.0.1") -> socket.socket:
    """A connection to the pages at ``base`` from ``source`` (a loopback address)."""
    port = int(base.rsplit(":", 1)[1])
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (what it still sends is read and let go)."""
    deadline = time.monotonic() + within
    try:
        while (left := deadline - time.monotonic()) > 0:
            sock.settimeout(left)
            if sock.recv(65536) == b"":
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


def open_files() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_connection_sending_its_headers_slowly_is_closed(live: Live) -> None:
    # A slow sender's connection was held for good: 21,000 of them held the referee at its 20,000 open files.
    sock = connect(live.base)
    started = time.monotonic()
    sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # and never the rest
    assert closed(sock, 5.0)
    assert time.monotonic() - started < 3.0
    sock.close()


def test_a_kept_alive_connection_sending_its_next_headers_slowly_is_closed(live: Live) -> None:
    sock = connect(live.base)
    sock.sendall(b"GET /login HTTP/1.1\r\nHost: x\r\n\r\n")
    sock.settimeout(5)
    assert sock.recv(65536).startswith(b"HTTP/1.1 200")
    sock.sendall(b"GET /login HTTP/1.1\r\n")  # the next request's headers, started: the idle timer stops
    assert closed(sock, 5.0)
    sock.close()


def test_connections_past_the_cap_are_refused_quietly_and_the_rest_is_served(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    server, port = asyncio.run_coroutine_threadsafe(create_server(live.contest, 0, "127.0.0.1"), live.loop).result(20)
    held: list[socket.socket] = []
    caplog.set_level(logging.WARNING)
    try:
        before = open_files()
        for _ in range(300):
            held.append(connect(live.base))
            held[-1].sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.5)
        # the 300 client ends are this process's too: the server keeps at most the cap of one address
        assert open_files() - before <= len(held) + LIMITS.max_per_address + 10
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"), timeout=5) as other:
            assert other.get(f"{live.base}/").status_code == 401  # another address is served
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            answer = health.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
            assert answer.status == health_pb2.HealthCheckResponse.SERVING
        refusals = [r for r in caplog.records if "refused connections from 127.0.0.1" in r.getMessage()]
        assert len(refusals) == 1
        assert not any(record.exc_info for record in caplog.records)
    finally:
        for sock in held:
            sock.close()
        asyncio.run_coroutine_threadsafe(server.stop(0), live.loop).result(20)


def test_referee_serve_takes_the_pages_caps_and_header_timeout(tmp_path: Path) -> None:
    admin, http_port = secrets.token_urlsafe(24), free_port()
    options = ("--host", "127.0.0.1", "--http", str(http_port), "--http-max-per-address", "2")
    with referee_serving(tmp_path, admin, *options, "--http-header-timeout", "0.5") as (_, log):
        base = f"http://127.0.0.1:{http_port}"
        first, second, third = (connect(base) for _ in range(3))
        assert closed(third, 5.0)  # past the 2 of one address, at once
        assert closed(first, 5.0) and closed(second, 5.0)  # no headers within 0.5 s
        for sock in (first, second, third):
            sock.close()
        with httpx.Client(timeout=5) as client:
            reply = client.get(f"{base}/", headers={"authorization": f"Bearer {admin}"})
            assert reply.status_code == 200
    text = log.read_text()
    assert "refused connections from 127.0.0.1: 2 open from it" in text and "Traceback" not in text


def test_the_pages_wait_while_they_are_over_their_share_of_a_core() -> None:
    share = CpuShare(0.5, burst=0.01)

    async def waited_after(charged: float) -> float:
        await share.wait()
        share.charge(charged)  # a helper thread's render, say
        started = time.monotonic()
        await share.wait()
        return time.monotonic() - started

    assert 0.9 <= asyncio.run(waited_after(0.5)) < 3.0  # 0.49 s in debt at half a core: about a second


def test_requests_waiting_together_get_through_as_the_share_refills() -> None:
    # each waiting request polled the budget, and its polls' CPU time was charged to it: requests waiting together
    # spent about what it regained, and some waited 30 s and more (a browser's page timed out on a 403)
    share = CpuShare(0.05, burst=0.05)

    async def request() -> None:
        await share.wait()
        busy = time.thread_time() + 0.001  # a millisecond's work on the pages' thread
        while time.thread_time() < busy:
            pass

    async def twenty_requests() -> float:
        await share.wait()
        share.charge(0.1)  # 0.05 s in debt: a second at 5% of a core
        started = time.monotonic()
        await asyncio.wait_for(asyncio.gather(*(request() for _ in range(20))), 20)
        return time.monotonic() - started

    assert asyncio.run(twenty_requests()) < 4  # a second, and 20 ms of work: 0.4 s
