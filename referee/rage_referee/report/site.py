"""``rage league report``: the league's pages as a static site that opens from disk.

``DIR/index.html`` holds the standings, crosstable, rating history and recent games; each bot has
``bots/NAME.html``; each game with a replay has ``games/NNNNN.html`` and one data file per view
beside it, so a viewer loads only the view it shows and a seat's file holds only what that seat saw.
``report.json`` names the league and lists those files: a build into a folder replaces only them, and only
in a folder that is new, empty or the same league's report.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from rage_sdk.errors import IllegalActionError
from rage_sdk.record import GameRecord, check_shape

from ..faults import Forfeits
from ..league import output_folder
from ..league.audit import Audit
from ..league.collusion import CollusionRow
from ..league.ratings import RatingRow
from ..play.finished import FinishedGame
from .pages import (
    League,
    bot_file,
    game_file,
    games_page_file,
    games_pages,
    render_bot,
    render_game,
    render_games,
    render_index,
    replay_script,
)
from .replays import replay_views, view_names

FORMAT = "rage-report/1"
MARKER = "report.json"
"""The report's own file: its format, its league's name and every file it wrote (those a new build replaces)."""


@dataclass(frozen=True)
class Built:
    """What a build wrote: pages, replays, bytes and seconds."""

    pages: int
    replays: int
    skipped: list[str]
    """Games whose record could not be replayed, each with why."""
    index_bytes: int
    total_bytes: int
    replay_bytes: int
    """The games folder: replay pages and their views' data."""
    seconds: float
    replay_seconds: float


def copy_static(out: Path) -> list[Path]:
    """The pages' style and scripts, into ``out/static``; the files written."""
    static = out / "static"
    static.mkdir(parents=True, exist_ok=True)
    written = []
    for asset in files("rage_referee.report").joinpath("static").iterdir():
        if asset.is_file():
            (static / asset.name).write_bytes(asset.read_bytes())
            written.append(static / asset.name)
    return written


def write_replay(directory: Path, game: FinishedGame, league: League) -> list[Path]:
    """A game's page and one script per view, the files written; :class:`ValueError` if its record cannot be
    replayed."""
    record = GameRecord.model_validate(game.record)
    check_shape(record)
    views = replay_views(record, [fault.to_json() for fault in game.figures.faults])
    stem = game_file(game.index)
    written = []
    for name, data in views.items():
        (directory / f"{stem}.{name}.js").write_text(replay_script(data))
        written.append(directory / f"{stem}.{name}.js")
    (directory / f"{stem}.html").write_text(render_game(league, game, view_names(len(record.players))))
    return [*written, directory / f"{stem}.html"]


def foreign_contents(out: Path, league: str) -> str | None:
    """What keeps ``out`` from taking the report of ``league``, in words
    (:func:`..league.output_folder.foreign_contents`): nothing when it is missing, empty or that league's own report."""
    return output_folder.foreign_contents(out, MARKER, FORMAT, league, "report")


def _write_marker(out: Path, league: str, written: Sequence[Path]) -> None:
    listed = sorted(path.relative_to(out).as_posix() for path in written)
    (out / MARKER).write_text(json.dumps({"format": FORMAT, "name": league, "files": listed}, indent=1) + "\n")


def _remove_listed(out: Path) -> None:
    """Remove the files the report in ``out`` wrote, as its marker lists them: only regular files inside ``out``,
    never through a link."""
    marker = output_folder.read_marker(out / MARKER, FORMAT)
    listed = marker.get("files") if marker is not None else None
    for name in (Path(str(item)) for item in (listed if isinstance(listed, list) else [])):
        path = out / name
        if name.is_absolute() or ".." in name.parts or not path.parent.resolve().is_relative_to(out.resolve()):
            continue
        if path.is_file() and not path.is_symlink():
            path.unlink()


def replayable(games: Sequence[FinishedGame], limit: int | None) -> list[FinishedGame]:
    """The games to build replays for: all, or the ``limit`` most recent and every game with a fault."""
    if limit is None:
        return list(games)
    recent = {game.index for game in sorted(games, key=lambda g: -g.index)[:limit]}
    return [game for game in games if game.index in recent or game.figures.faults]


def build_site(
    name: str,
    games: Sequence[FinishedGame],
    rows: Sequence[RatingRow],
    out: Path,
    replay_limit: int | None = None,
    on_replay: Callable[[], None] | None = None,
    audits: Mapping[str, Audit] | None = None,
    collusion: Sequence[CollusionRow] = (),
    forfeits: Forfeits = Forfeits.UNRATED,
) -> Built:
    """Write the report of one league into ``out``: made if missing, else it must be empty or hold the league's own
    report (:func:`foreign_contents`), whose files, those its :data:`MARKER` lists, are replaced; nothing else
    there is touched. ``audits`` and ``collusion``: the memory audit and collusion tests the standings show;
    ``forfeits``: how the ratings counted a forfeited seat (the crosstable and history count so too)."""
    started = time.perf_counter()
    (out / "bots").mkdir(parents=True, exist_ok=True)
    (out / "games").mkdir(exist_ok=True)
    _remove_listed(out)
    _write_marker(out, name, [])  # the folder is this league's report from now on, even if the build stops
    written = copy_static(out)
    chosen = replayable(games, replay_limit)
    replays = {game.index for game in chosen}
    league = League(name, games, rows, replays, audits=audits or {}, collusion=collusion, forfeits=forfeits)
    skipped = []
    replays_started = time.perf_counter()
    for game in chosen:
        try:
            written += write_replay(out / "games", game, league)
        except (ValueError, IllegalActionError) as error:
            skipped.append(f"game {game.index}: {error}")
            league.replays.discard(game.index)
        if on_replay is not None:
            on_replay()
    replay_seconds = time.perf_counter() - replays_started
    for bot in league.bots:
        written.append(out / "bots" / f"{bot_file(bot)}.html")
        written[-1].write_text(render_bot(league, bot))
    for number in range(1, games_pages(league) + 1):
        written.append(out / games_page_file(number))
        written[-1].write_text(render_games(league, number))
    index = out / "index.html"
    index.write_text(render_index(league))
    _write_marker(out, name, [*written, index])
    total = sum(path.stat().st_size for path in out.rglob("*") if path.is_file())
    replay_bytes = sum(path.stat().st_size for path in (out / "games").iterdir())
    return Built(
        pages=1 + games_pages(league) + len(league.bots) + len(league.replays),
        replays=len(league.replays),
        skipped=skipped,
        index_bytes=index.stat().st_size,
        total_bytes=total,
        replay_bytes=replay_bytes,
        seconds=time.perf_counter() - started,
        replay_seconds=replay_seconds,
    )
