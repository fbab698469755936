"""A small league with faults, its report, and a headless Chromium to look at pages with."""

from __future__ import annotations

import asyncio
import functools
import http.server
import secrets
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from rage_referee.hosted import messages
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.play.finished import FinishedGame
from rage_referee.report.front import Limits
from rage_referee.report.live import bound_port, start_http

from tests.conftest import require, require_command
from tests.helpers.league import GREEDY, HEURISTIC, RANDOM, TEST_BOTS, write_league
from tests.helpers.league import stored as stored

BOTS = {"heuristic": HEURISTIC, "greedy": GREEDY, "random": RANDOM, "raiser": f"{TEST_BOTS / 'raiser.py'}:RaiserBot"}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


DEFINITION = """
name = "cup"
players = 3
games = 24
seed = 3
[ruleset]
preset = "amigo"
[bots]
heuristic = ""
greedy = ""
random = ""
raiser = ""
"""


@dataclass
class Live:
    base: str
    admin: str
    entry: str
    bot: str
    """The token of bot ``raiser``."""
    contest: Contest
    loop: asyncio.AbstractEventLoop
    games: list[FinishedGame]
    entrants: dict[str, str] = field(default_factory=dict)
    """Each entrant's token, by name."""

    def finish(self, game: FinishedGame) -> None:
        """Store a game and announce it, as a league run does, in the server's loop."""
        league = self.contest.registry.league("cup")

        def publish() -> None:
            self.contest.store.add(league.league_id, game)
            done = self.contest.store.count(league.league_id)
            for event in messages.game_events("cup", game, done, league.games_total):
                self.contest.hub.publish(event)

        self.loop.call_soon_threadsafe(publish)


async def _cancel_the_rest() -> None:
    """Cancel every other task of this loop (the event streams' helpers) and wait for them."""
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


@contextmanager
def live_contest(
    folder: Path,
    games: list[FinishedGame],
    shown: int,
    limits: Limits | None = None,
    owners: Mapping[str, str] | None = None,
) -> Iterator[Live]:
    """A contest whose running league "cup" holds the first ``shown`` of ``games``, its pages served (within
    ``limits``); ``owners`` names the entrant of some of its bots (the others are the organizer's), its
    submitted bots' logs are under ``folder / "submissions"``."""
    admin, entry, bot = (secrets.token_urlsafe(24) for _ in range(3))
    url, allow = f"sqlite:///{folder / 'referee.sqlite'}", AllowList.parse(LOOPBACK)
    contest = Contest.open(url, admin, entry, allow, submissions_dir=folder / "submissions")
    entrants = {name: secrets.token_urlsafe(24) for name in sorted(set((owners or {}).values()))}
    for name, token in entrants.items():
        contest.registry.add_entrant(name, token_hash(token))
    for port, name in enumerate(("heuristic", "greedy", "random", "raiser"), 1):  # one address each
        token = token_hash(bot if name == "raiser" else name * 8)
        contest.registry.add_bot(name, f"127.0.0.1:{port}", "", token, entrant=(owners or {}).get(name, ""))
    registered = {bot.name: bot.address for bot in contest.registry.bots()}
    contest.leagues.create(read_definition(DEFINITION, "cup", registered), DEFINITION)
    league_id = contest.registry.league("cup").league_id
    for game in games[:shown]:
        contest.store.add(league_id, game)
    contest.registry.set_status("cup", LeagueStatus.RUNNING)  # as the pages see it; no run plays it here
    loop = asyncio.new_event_loop()
    started: list[Any] = []

    def run() -> None:
        asyncio.set_event_loop(loop)
        started.append(loop.run_until_complete(start_http(contest, 0, "127.0.0.1", limits)))
        loop.run_forever()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the pages did not start")
        time.sleep(0.05)
    server, task = started[0]
    try:
        yield Live(f"http://127.0.0.1:{bound_port(server)}", admin, entry, bot, contest, loop, games, entrants)
    finally:
        server.should_exit = True
        loop.call_soon_threadsafe(contest.hub.shutdown)  # the event streams end, as when the referee stops
        asyncio.run_coroutine_threadsafe(asyncio.wait_for(asyncio.shield(task), 10), loop).result(15)
        asyncio.run_coroutine_threadsafe(_cancel_the_rest(), loop).result(15)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        contest.close()


def league_file(directory: Path, games: int = 12, bidding: str = "open", duplicate: bool = False) -> Path:
    """A league of four in-process bots (one raises now and then: faults), three at a table, by default without
    duplicate deals: a round is a game at each of the 4 tables, so 12 games are 3 rounds; with ``duplicate``
    a round is a set of 6 seatings at each table, 24 games."""
    return write_league(
        directory,
        name="mini",
        games=games,
        seed=3,
        bots=BOTS,
        extra=f"concurrency = 4\nduplicate = {str(duplicate).lower()}",
        ruleset=f'preset = "amigo"\nbidding = "{bidding}"',
    )


@contextmanager
def served(directory: Path) -> Iterator[str]:
    """``directory`` over HTTP on localhost: the base URL."""

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's), skipped locally without one."""
    path = require_command("chromium", "install it with `apt-get install chromium` (CI installs it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        require(False, "the Python package playwright", "run `make install`")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def signed_in(browser: Any, base: str, token: str) -> Any:
    """A page of a new browser context that has signed in at the pages served at ``base`` with ``token``,
    through the sign-in form."""
    page = browser.new_context().new_page()
    page.goto(f"{base}/login")
    page.fill("input[name=token]", token)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base}/")
    return page


class _PageText(HTMLParser):
    """A page's visible text: a line per row, paragraph or heading, its cells apart by a space."""

    LINE_ENDS = frozenset({"tr", "p", "h1", "h2", "h3", "li", "div", "section"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: Any) -> None:
        self.hidden += tag in ("script", "style")
        self.parts.append(" " if tag in ("td", "th") else "")

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")
        self.parts.append("\n" if tag in self.LINE_ENDS else "")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data.replace("\n", " "))  # lines end where the page's blocks do


def page_text(html: str) -> list[str]:
    """The lines a reader sees on a page (scripts and styles left out), each with its spaces made one."""
    parser = _PageText()
    parser.feed(html)
    return [line for line in (" ".join(text.split()) for text in "".join(parser.parts).splitlines()) if line]
