"""League tests' shared set-up: the example bots in-process, league files, the games a league stored, the CLI."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rage_referee.cli import app
from rage_referee.league.config import load_league
from rage_referee.league.store import Store
from rage_referee.play.finished import FinishedGame
from typer.testing import CliRunner, Result

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TEST_BOTS = ROOT / "tests" / "bots"
HEURISTIC = f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"
FIELD = {"heuristic": HEURISTIC, "greedy": GREEDY, "random": RANDOM, "random-2": RANDOM}
"""Four in-process example bots, the league files' bots unless they name others."""


def rage(*args: str | Path) -> Result:
    """``rage ARGS...`` in this process."""
    return CliRunner().invoke(app, [str(arg) for arg in args])


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (the console wraps long lines)."""
    return " ".join(text.split())


def toml_value(value: Any) -> str:
    return (
        json.dumps(value) if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)
    )


def league_text(
    *,
    bots: dict[str, str] | None = None,
    name: str = "test",
    players: int = 3,
    games: int | None = 24,
    games_per_table: int | None = None,
    seed: int | None = 1,
    database: str = "league.sqlite",
    ruleset: str = 'preset = "amigo"',
    extra: str = "",
    tables: str = "",
) -> str:
    """A league file: the settings (``seed=None``: a secret deal key), ``extra`` top-level lines,
    the ``[ruleset]`` lines, ``tables`` (say ``[time]`` and its lines), then the bots (:data:`FIELD`)."""
    settings: dict[str, Any] = {"name": name, "players": players, "database": database}
    for key, value in {"seed": seed, "games": games, "games_per_table": games_per_table}.items():
        if value is not None:
            settings[key] = value
    lines = [f"{key} = {toml_value(value)}" for key, value in settings.items()]
    lines += [extra, "[ruleset]", ruleset, tables, "[bots]"]
    lines += [f"{json.dumps(bot)} = {json.dumps(target)}" for bot, target in (bots or FIELD).items()]
    return "\n".join(lines) + "\n"


def write_league(directory: Path, filename: str = "league.toml", **settings: Any) -> Path:
    """:func:`league_text` written to ``directory / filename`` (the folder made first)."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / filename
    path.write_text(league_text(**settings))
    return path


def stored(file: Path) -> list[FinishedGame]:
    """The games the league of ``file`` has stored, in its database."""
    config = load_league(file)
    store = Store(config.database_url(file.parent))
    try:
        return store.games(store.league(config.name))
    finally:
        store.close()


def kill_league_run(argv: list[str], cwd: Path, played: Callable[[], int], games: int, seconds: float) -> None:
    """Run ``rage league run`` (``argv`` after ``rage_referee``) and SIGKILL it once ``played()`` reaches ``games``.

    Fails when the league ends before it could be killed; its output is in ``cwd/run.log``.
    """
    with (cwd / "run.log").open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "rage_referee", *argv],
            cwd=cwd,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            deadline = time.monotonic() + seconds
            while played() < games and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            assert process.poll() is None, "the league ended before it was killed: " + (cwd / "run.log").read_text()
            process.send_signal(signal.SIGKILL)
            process.wait(10)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
    assert process.returncode == -signal.SIGKILL
