"""``rage league``: run a league from its file (resuming where it stopped), export its results."""

from __future__ import annotations

import asyncio
import csv
import json
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from .common import err, fail, out, refusing_unwritable
from .ratings import Format, render

if TYPE_CHECKING:
    from ..game import GameResult

app = typer.Typer(help="Round-robin leagues: run one from its file, export its results.", no_args_is_help=True)
LeagueFile = Annotated[Path, typer.Argument(help="The league's TOML file.", show_default=False)]


@app.command("run")
def run_command(
    file: LeagueFile,
    logs: Annotated[Path | None, typer.Option(help="Folder for the bots' logs (default: beside the database).")] = None,
) -> None:
    """Play the league's games not played yet, then print the rating table. Safe to stop and run again."""
    from ..bots import BotSpecError
    from ..connection import HandshakeError
    from ..league.config import LeagueConfigError, load_league
    from ..league.ratings import rating_table
    from ..league.runner import plan_league, run_league
    from ..league.store import Store, StoreError

    try:
        config = load_league(file)
        store = Store(config.database_url(file.parent))
        plan = plan_league(config, store)
    except (LeagueConfigError, StoreError) as error:
        fail(str(error))
    records = None if config.records is None else file.parent / config.records
    log_dir = logs or file.parent / "logs"
    total, already = len(plan.games), len(plan.done)
    if already:
        out.print(f"{config.name}: {already} of {total} games stored already; playing the other {total - already}")
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[rate]} games/s"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=err,
    ) as progress:
        task = progress.add_task(config.name, total=total, completed=already, rate="-")

        def advance(game: GameResult) -> None:
            progress.update(task, advance=1)
            speed = progress.tasks[0].speed
            progress.update(task, rate=f"{speed:.1f}" if speed else "-")
            for fault in game.faults:
                progress.console.print(
                    f"game {game.spec.game_id}: {game.spec.seats[fault.seat]} {fault.kind.value} "
                    f"(round {fault.round}, trick {fault.trick}): {fault.detail}",
                    style="yellow",
                )

        try:
            asyncio.run(run_league(config, store, plan, log_dir, records, on_game=advance))
        except (BotSpecError, HandshakeError) as error:
            fail(f"cannot run the league: {error}", 1)
        except KeyboardInterrupt:
            fail(f"stopped; every finished game is stored in {store.url}: run again to resume", 130)
    games = store.games(plan.league_id)
    render(rating_table(games), Format.TABLE, f"{config.name}: {len(games)} games, {config.ruleset.describe()}")


@app.command("export")
@refusing_unwritable("--out")
def export_command(
    file: LeagueFile,
    out_dir: Annotated[Path, typer.Option("--out", help="Folder to write into.")] = Path("export"),
) -> None:
    """Write games and standings as JSON and CSV, and every game's record as its own file."""
    from ..league.config import LeagueConfigError, load_league
    from ..league.ratings import rating_table
    from ..league.store import Store, StoreError

    try:
        config = load_league(file)
        store = Store(config.database_url(file.parent), create=False)
        games = store.games(store.league(config.name, config.schedule_key(), create=False))
    except (LeagueConfigError, StoreError) as error:
        fail(str(error))
    (out_dir / "records").mkdir(parents=True, exist_ok=True)
    rows = []
    for game in games:
        (out_dir / "records" / f"game-{game.index:05d}.json").write_text(json.dumps(game.record, indent=1))
        rows.append(
            {
                "index": game.index,
                "set": game.set_id,
                "seed": game.seed,
                "seats": list(game.seats),
                "totals": list(game.totals),
                "places": list(game.places),
                "hits": list(game.hits),
                "rounds": game.rounds,
                "faults": len(game.faults),
            }
        )
    (out_dir / "games.json").write_text(json.dumps(rows, indent=1))
    with (out_dir / "games.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["index", "set", "seed", "seat", "bot", "total", "place", "rounds_bid_exactly", "faults"])
        for game in games:
            for seat, name in enumerate(game.seats):
                writer.writerow(
                    [
                        game.index,
                        game.set_id,
                        game.seed,
                        seat,
                        name,
                        game.totals[seat],
                        game.places[seat],
                        game.hits[seat],
                        game.faults_of(seat),
                    ]
                )
    standings = [asdict(row) for row in rating_table(games)]
    (out_dir / "standings.json").write_text(json.dumps(standings, indent=1))
    with (out_dir / "standings.csv").open("w", newline="") as handle:
        table = csv.DictWriter(handle, fieldnames=list(standings[0]) if standings else [])
        table.writeheader()
        table.writerows(standings)
    out.print(f"{len(games)} games of {config.name} written to {out_dir}/ (games, standings, records/)")
