"""A small league with faults, its report, and a headless Chromium to look at pages with."""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from conftest import require, require_command
from rage_referee.league.config import load_league
from rage_referee.league.store import Store, StoredGame

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
BOTS = {
    "heuristic": f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot",
    "greedy": f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot",
    "random": f"{EXAMPLES / 'random_bot.py'}:RandomBot",
    "raiser": f"{ROOT / 'tests' / 'bots' / 'raiser.py'}:RaiserBot",
}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def league_file(directory: Path, games: int = 12, bidding: str = "open") -> Path:
    """A league of four in-process bots (one raises now and then: faults), three at a table."""
    lines = [
        'name = "mini"',
        "players = 3",
        f"games = {games}",
        "seed = 3",
        'database = "league.sqlite"',
        "concurrency = 4",
        "[ruleset]",
        'preset = "amigo"',
        f'bidding = "{bidding}"',
        "[bots]",
        *(f'"{name}" = "{target}"' for name, target in BOTS.items()),
    ]
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def stored(file: Path) -> list[StoredGame]:
    config = load_league(file)
    store = Store(config.database_url(file.parent), create=False)
    try:
        return store.games(store.league(config.name))
    finally:
        store.close()


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
