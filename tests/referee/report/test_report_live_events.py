"""The live pages' event stream (``/leagues/NAME/events``) is a watcher like a ``Watch`` stream:

- counted against its token's streams, with room kept for the admin: one token's open pages cannot
  lock every other token out of Watch; a stream past the cap is refused in one line (429);
- on a league that is over or failed it sends its state and ends, as a Watch stream does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from rage_referee.hosted import events
from rage_referee.hosted.registry import LeagueStatus

from tests.helpers.report import Live, live_contest


@pytest.fixture
def live(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Live]:
    monkeypatch.setattr(events, "MAX_WATCHERS", 6)
    monkeypatch.setattr(events, "MAX_WATCHERS_PER_ENTRANT", 2)
    monkeypatch.setattr(events, "ADMIN_RESERVED", 1)
    with live_contest(tmp_path, [], shown=0) as served:
        yield served


def open_stream(stack: ExitStack, live: Live, token: str) -> tuple[int, str]:
    """An events stream of league ``cup`` kept open on ``stack``: its status, and its text up to its hello."""
    client = stack.enter_context(httpx.Client(base_url=live.base, timeout=20))
    headers = {"authorization": f"Bearer {token}"}
    reply = stack.enter_context(client.stream("GET", "/leagues/cup/events", headers=headers))
    if reply.status_code != 200:
        return reply.status_code, reply.read().decode()
    text, lines = "", reply.iter_lines()
    stack.callback(lines.close)  # kept till then: a line iterator let go closes the stream
    for line in lines:
        text += line + "\n"
        if line.startswith("data:") and "event: hello" in text:
            break
    return reply.status_code, text


def test_a_tokens_event_streams_are_capped_and_the_admin_keeps_room(live: Live) -> None:
    with ExitStack() as stack:
        opened = [open_stream(stack, live, live.entry)[0] for _ in range(2)]
        assert opened == [200, 200]
        status, text = open_stream(stack, live, live.entry)
        assert status == 429
        assert "Watch streams open already" in text and "\n" not in text.strip()
        assert [open_stream(stack, live, live.bot)[0] for _ in range(3)] == [200, 200, 429]
        # 4 of the 6 open, 1 kept for the admin: a third token gets the one left, the admin its own.
        assert open_stream(stack, live, "heuristic" * 8)[0] == 200
        assert open_stream(stack, live, "greedy" * 8)[0] == 429
        assert open_stream(stack, live, live.admin)[0] == 200


@pytest.mark.parametrize("status", [LeagueStatus.FINISHED, LeagueStatus.FAILED])
def test_the_events_of_a_league_over_or_failed_end_after_its_state(live: Live, status: LeagueStatus) -> None:
    async def set_status() -> None:
        live.contest.registry.set_status("cup", status, "it broke" if status is LeagueStatus.FAILED else "")

    asyncio.run_coroutine_threadsafe(set_status(), live.loop).result(10)
    headers = {"authorization": f"Bearer {live.entry}"}
    reply = httpx.get(f"{live.base}/leagues/cup/events", headers=headers, timeout=10)
    assert reply.status_code == 200
    assert "event: hello" in reply.text and f'"status": "{status.value}"' in reply.text
