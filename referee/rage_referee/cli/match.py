"""``rage match``: N games among the same bots, then a table."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..limits import MAX_BANK_MS, MAX_DECISION_MS, MAX_FAULTS, MAX_GAMES, MAX_SEED
from .common import RULESET_HELP, err, fail, out, parse_ruleset

if TYPE_CHECKING:
    from rage_sdk.rules import Ruleset

    from ..game import GameResult
    from ..match import MatchResult


def match_table(result: MatchResult, title: str) -> Table:
    table = Table(title=title)
    table.add_column("bot")
    for column in ("games", "mean score", "mean place", "bid accuracy", "faults"):
        table.add_column(column, justify="right")
    ranked = sorted(result.stats.values(), key=lambda stats: (stats.mean_place, -stats.mean_score))
    for stats in ranked:
        name = stats.name + (" (forfeited)" if stats.name in result.forfeited else "")
        table.add_row(
            name,
            str(stats.games),
            f"{stats.mean_score:.1f}",
            f"{stats.mean_place:.2f}",
            f"{stats.bid_accuracy:.1%}",
            str(stats.faults),
        )
    return table


def _check_records_folder(records: Path) -> None:
    """``--records`` must be a new or empty folder: a match never mixes its records with another's."""
    if records.exists() and not records.is_dir():
        fail(f"--records: {records} is not a folder")
    try:
        if records.is_dir() and any(records.iterdir()):
            fail(f"--records: {records} is not empty; give a new or empty folder, so no other match's records mix in")
        records.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"--records: cannot write {records}: {error.strerror or error}")


def match_command(
    bot: Annotated[
        list[str],
        typer.Option("--bot", help="NAME=COMMAND (launched with {port}), NAME=HOST:PORT or NAME=FILE.py:CLASS."),
    ],
    ruleset: Annotated[str, typer.Option(help=RULESET_HELP)] = "amigo",
    games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Games to play; seats rotate each game.")] = 10,
    seed: Annotated[int, typer.Option(min=0, max=MAX_SEED, help="Game g deals from seed + g.")] = 0,
    records: Annotated[
        Path | None, typer.Option(help="Write every game's rage-record/1 into this folder (new or empty).")
    ] = None,
    concurrency: Annotated[int, typer.Option(min=1, help="Games played at once.")] = 1,
    decision_ms: Annotated[int, typer.Option(min=1, max=MAX_DECISION_MS, help="Time for each decision.")] = 1000,
    bank_ms: Annotated[
        int, typer.Option(min=0, max=MAX_BANK_MS, help="Extra time per game for decisions that run over.")
    ] = 10_000,
    max_faults: Annotated[
        int, typer.Option(min=1, max=MAX_FAULTS, help="Faults before a bot is forfeited for the match.")
    ] = 20,
    logs: Annotated[Path, typer.Option(help="Folder for the launched bots' stderr logs.")] = Path("logs"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON instead of a table.")] = False,
) -> None:
    """Play GAMES games among the bots (one seat each) and print games, mean score and place, bid accuracy, faults."""
    from ..bots import BotSpec, BotSpecError
    from ..connection import HandshakeError
    from ..game import TimeControl
    from ..match import MatchResult, run_match

    try:
        specs = [BotSpec.parse(text) for text in bot]
    except BotSpecError as error:
        fail(str(error))
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        fail(f"--bot: names must differ (got {', '.join(names)})")
    rules = parse_ruleset(ruleset)
    if not rules.min_players <= len(specs) <= rules.max_players:
        fail(f"--bot: {len(specs)} bots, but {rules.preset} seats {rules.min_players}-{rules.max_players}")
    if records is not None:
        _check_records_folder(records)
    time = TimeControl(decision_ms, bank_ms, max_faults)
    finished: list[GameResult] = []
    with Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("games", total=games)

        def advance(game: GameResult) -> None:
            finished.append(game)
            progress.update(task, advance=1)
            for fault in game.faults:
                progress.console.print(
                    f"game {game.spec.game_id}: {game.spec.seats[fault.seat]} {fault.kind.value} "
                    f"(round {fault.round}, trick {fault.trick}): {fault.detail}"
                )

        try:
            result = asyncio.run(
                run_match(specs, rules, games, seed, time, concurrency, records, logs, on_game=advance)
            )
        except (BotSpecError, HandshakeError) as error:
            fail(f"cannot start the match: {error}", 1)
        except KeyboardInterrupt:
            result = None
    if result is None:  # stopped with Ctrl-C: the games finished so far, then exit 130
        stopped = MatchResult.of(names, sorted(finished, key=lambda game: game.spec.game_id))
        _report(stopped, rules, as_json, f"stopped after {len(finished)} of {games} games, {rules.describe()}", records)
        raise typer.Exit(130)
    _report(result, rules, as_json, f"{games} games, {rules.describe()}, seed {seed}", records)


def _report(result: MatchResult, rules: Ruleset, as_json: bool, title: str, records: Path | None) -> None:
    """The match's figures: a table titled ``title``, or one JSON object."""
    if as_json:
        figures = {
            name: {
                "games": s.games,
                "mean_score": s.mean_score,
                "mean_place": s.mean_place,
                "bid_accuracy": s.bid_accuracy,
                "faults": s.faults,
                "forfeited": name in result.forfeited,
            }
            for name, s in result.stats.items()
        }
        print(json.dumps({"ruleset": rules.to_json(), "games": len(result.games), "bots": figures}))
        return
    out.print(match_table(result, title))
    if records is not None:
        out.print(f"records in {records}/", markup=False)
