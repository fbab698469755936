"""``rage league report``: a league's standings, crosstable, rating history, bots and replays as a static site."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..text import name_text
from .common import err, fail, out
from .options import DatabaseOption, LeagueNameOption
from .stored_league import read_league

AUTO_REPLAYS = 1000
"""Without --replays, leagues of more games get replays for this many recent games (and faulted ones)."""


def report_command(
    file: Annotated[Path | None, typer.Argument(help="The league's TOML file.", show_default=False)] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write the site into.")] = Path("report"),
    db: DatabaseOption = None,
    name: LeagueNameOption = None,
    replays: Annotated[
        str | None,
        typer.Option(
            help=f"Replays for the N most recent games and every game with a fault, or 'all' "
            f"(default: all up to {AUTO_REPLAYS} games, else the {AUTO_REPLAYS} most recent and those with a fault).",
            show_default=False,
        ),
    ] = None,
    include_running: Annotated[
        bool,
        typer.Option(
            "--include-running",
            help="Include the games of duplicate sets still being played, every hand of them: for the organizer "
            "alone (a bot still to play such a set would read the other seats' hands).",
        ),
    ] = False,
) -> None:
    """Write the league's report: DIR/index.html (standings, crosstable, history), a page per bot, a replay per game.

    Games of a duplicate set still being played are left out (they show the hands its other games deal)
    unless --include-running."""
    from ..league.audit import memory_audit
    from ..league.collusion import collusion_table
    from ..league.ratings import rating_table
    from ..report.site import build_site, foreign_contents

    limit = replay_limit(replays)
    stored = read_league(file, db, name, "a league FILE")
    league_name, games = stored.name, stored.games
    release = stored.release
    running = release.unreleased_sets(games)
    if running:
        count = sum(game.set_id in running for game in games)
        sets = f"{len(running)} duplicate set{'s' * (len(running) != 1)}"
        what = f"{count} game{'s' * (count != 1)} of {sets} still being played"
        if include_running:
            err.print(f"--include-running: the report shows {what}, every hand: keep it from the bots", style="yellow")
        else:
            games = release.released(games)
            err.print(f"left out {what} (their hands are dealt again in games to come); --include-running shows them")
    if not games:
        fail(f"league {name_text(league_name)!r} has no finished game yet" + (" of a whole set" if running else ""))
    if replays is None and len(games) > AUTO_REPLAYS:
        limit = AUTO_REPLAYS
    held = foreign_contents(out_dir, league_name)
    if held is not None:
        fail(f"--out: {out_dir} holds {held}: give a new or empty folder, or this league's own report")
    rows = rating_table(games, forfeits=stored.forfeits)
    audits, collusion = memory_audit(games, stored.order), collusion_table(games, [row.name for row in rows])
    try:
        built = build_site(
            league_name, games, rows, out_dir, limit, audits=audits, collusion=collusion, forfeits=stored.forfeits
        )
    except OSError as error:
        fail(f"--out: cannot write {out_dir}: {error.strerror or error}")
    for problem in built.skipped:
        err.print(f"no replay for {problem}", style="yellow")
    out.print(
        f"{name_text(league_name)}: {len(games)} games, {built.pages} pages ({built.replays} replays) in {out_dir}/ "
        f"in {built.seconds:.1f} s; index.html {built.index_bytes / 1024:.0f} KiB, "
        f"all {built.total_bytes / 1024 / 1024:.1f} MiB"
    )
    if built.replays < len(games):
        out.print(f"replays for {built.replays} of {len(games)} games (--replays all for every one)")
    out.print(f"open {(out_dir / 'index.html').resolve().as_uri()}")


def replay_limit(text: str | None) -> int | None:
    """``--replays``: ``None`` for every game ('all' or not given), else how many recent games."""
    if text is None or text == "all":
        return None
    if not text.isdigit():
        fail(f"--replays: {text!r} is neither 'all' nor a number of games")
    return int(text)
