"""``rage match``: N games among the same bots, then a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..limits import MAX_GAMES, MAX_SEED
from ..text import los_text, name_text, names_alike, plural
from .common import COMMAND_HELP, err, fail, out, parse_ruleset
from .errors import saying
from .options import BankMsOption, ConcurrencyOption, DecisionMsOption, MaxFaultsOption, RulesetOption

if TYPE_CHECKING:
    from rage_sdk.rules import Ruleset

    from ..league.pairs import PairRow
    from ..matches.match import MatchResult
    from ..play.deals import Deals
    from ..play.finished import FinishedGame


FORFEIT_NOTE = (
    "faults: charged to the bot; forfeited: games in which the referee played for a forfeited bot "
    "(every such decision is a forfeited entry in the record's faults)"
)


def match_table(result: MatchResult, title: str) -> Table:
    table = Table(title=title)
    table.add_column("bot")
    for column in ("games", "mean score", "mean place", "bid accuracy", "faults", "forfeited"):
        table.add_column(column, justify="right")
    ranked = sorted(result.stats.values(), key=lambda stats: (stats.mean_place, -stats.mean_score))
    for stats in ranked:
        name = name_text(stats.name) + (" (forfeited)" if stats.name in result.forfeited else "")
        table.add_row(
            name,
            str(stats.games),
            f"{stats.mean_score:.1f}",
            f"{stats.mean_place:.2f}",
            f"{stats.bid_accuracy:.1%}",
            str(stats.faults),
            f"{stats.forfeited_games} games" if stats.forfeited_games else "",
        )
    table.caption = FORFEIT_NOTE if result.forfeited else None
    return table


def match_pairs(result: MatchResult, names: list[str]) -> list[PairRow]:
    """Every pair's duplicate score difference over the match's sets (``names`` best first)."""
    from dataclasses import replace

    from ..league.pairs import pair_table
    from ..league.seatings import seatings

    size = len(seatings(len(names)))
    games = [replace(game, set_id=game.index // size) for game in result.games]
    return pair_table(games, names)


def pair_line(row: PairRow, players: int) -> str:
    """A pair's difference, said to be this table's (the same pair differs by another at another size or field),
    with its 95% confidence sequence, or none while the sets bound none (too few, or all alike: no spread)."""
    where = f"points a game on the same deals at this table of {players}"
    a, b = name_text(row.a), name_text(row.b)
    if math.isinf(row.high):
        few = f"{plural(row.sets, 'set')}: too few for an interval yet"
        return f"{a} over {b}: {row.difference:+.2f} {where} ({few}), LOS {los_text(row.los_shown)}"
    spread = f" ±{(row.high - row.low) / 2:.2f}"
    return (
        f"{a} over {b}: {row.difference:+.2f}{spread} {where} (95% confidence sequence, {plural(row.sets, 'set')}), "
        f"LOS {los_text(row.los_shown)}"
    )


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
        typer.Option("--bot", help=f"NAME=COMMAND ({COMMAND_HELP}), NAME=HOST:PORT or NAME=FILE.py:CLASS."),
    ],
    ruleset: RulesetOption = "amigo",
    games: Annotated[int, typer.Option(min=1, max=MAX_GAMES, help="Games to play; seats rotate each game.")] = 10,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate", help="Whole duplicate sets: each deal in every seating (2 bots: 2, 3: 6, 4: 12 games)."
        ),
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=MAX_SEED,
            help="Public deals for a reproducible experiment (game g from (seed << 32) + g); "
            "without it, a secret deal key revealed when the match ends.",
        ),
    ] = None,
    records: Annotated[
        Path | None, typer.Option(help="Write every game's rage-record/1 into this folder (new or empty).")
    ] = None,
    concurrency: ConcurrencyOption = 1,
    decision_ms: DecisionMsOption = 1000,
    bank_ms: BankMsOption = 10_000,
    max_faults: MaxFaultsOption = 20,
    logs: Annotated[Path, typer.Option(help="Folder for the launched bots' stderr logs.")] = Path("logs"),
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON instead of a table.")] = False,
) -> None:
    """Play --games games among the bots (one seat each) and print games, mean score and place, bid accuracy, faults."""
    from ..faults import fault_lines
    from ..league.record_files import RecordFileError
    from ..league.seatings import seatings
    from ..matches.match import MatchResult, duplicate_specs, run_match, write_deal_key
    from ..play.deals import Deals
    from ..play.spec import TimeControl
    from ..seats import BotSpec, BotSpecError, HandshakeError
    from ..seats.spec import shared_seat

    specs = [BotSpec.parse(text) for text in bot]
    names = [spec.name for spec in specs]
    if (alike := names_alike(names)) is not None:
        fail(f"--bot: {alike}")
    if (shared := shared_seat(specs)) is not None:
        fail(f"--bot: {shared}")
    rules = parse_ruleset(ruleset)
    if not rules.min_players <= len(specs) <= rules.max_players:
        fail(f"--bot: {len(specs)} bots, but {rules.preset} seats {rules.min_players}-{rules.max_players}")
    if records is not None:
        _check_records_folder(records)
    time = TimeControl(decision_ms, bank_ms, max_faults)
    deals = Deals.secret() if seed is None else Deals.public(seed)
    finished: list[FinishedGame] = []
    forfeits_told: set[str] = set()
    err.print(deals.describe())
    total = len(duplicate_specs(names, rules, games, deals, TimeControl())) if duplicate else games
    if total != games:  # as a league says it
        err.print(f"{total:,} games, not the {games:,} asked: whole duplicate sets of {len(seatings(len(names)))}")
    with Progress(
        TextColumn("games"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err, transient=True
    ) as progress:
        task = progress.add_task("games", total=total)

        def advance(game: FinishedGame) -> None:
            finished.append(game)
            progress.update(task, advance=1)
            for line in fault_lines(game.index, game.figures.seats, game.figures.faults, forfeits_told):
                progress.console.print(line, markup=False)

        try:
            with saying({(BotSpecError, HandshakeError): ("cannot start the match: {error}", 1)}):
                result = asyncio.run(
                    run_match(
                        specs, rules, games, deals, time, concurrency, records, logs, advance, duplicate=duplicate
                    )
                )
        except KeyboardInterrupt:
            result, code = None, 130
        except RecordFileError as error:
            err.print(f"stopped: {error}", markup=False)
            result, code = None, 1
    source = "secret deals" if deals.key else f"public deals, seed {seed}"
    if result is None:  # stopped (the bots are stopped): the games finished so far, then exit 130 or 1
        stopped = MatchResult.of(names, sorted(finished, key=lambda game: game.index))
        if records is not None and deals.key is not None:
            with contextlib.suppress(OSError):
                write_deal_key(records, deals)
        title = f"stopped after {len(finished)} of {plural(total, 'game')}, {rules.describe()}, {source}"
        _report(stopped, rules, as_json, title, records, deals, duplicate)
        raise typer.Exit(code)
    title = f"{plural(len(result.games), 'game')}, {rules.describe()}, {source}"
    _report(result, rules, as_json, title, records, deals, duplicate)


def _report(
    result: MatchResult, rules: Ruleset, as_json: bool, title: str, records: Path | None, deals: Deals, duplicate: bool
) -> None:
    """The match's figures: a table titled ``title`` (with ``duplicate``, each pair's difference), or JSON.

    A secret ``deals`` key is revealed here, the match being over.
    """
    ranked = [stats.name for stats in sorted(result.stats.values(), key=lambda st: (st.mean_place, -st.mean_score))]
    pairs = match_pairs(result, ranked) if duplicate else []
    if as_json:
        figures = {
            name: {
                "games": s.games,
                "mean_score": s.mean_score,
                "mean_place": s.mean_place,
                "bid_accuracy": s.bid_accuracy,
                "faults": s.faults,
                "forfeited": name in result.forfeited,
                "forfeited_games": s.forfeited_games,
            }
            for name, s in result.stats.items()
        }
        document: dict[str, object] = {"ruleset": rules.to_json(), "games": len(result.games), "bots": figures}
        document |= (
            {"deal_key": deals.key.hex(), "deal_commitment": deals.commitment} if deals.key else {"seed": deals.seed}
        )
        if duplicate:
            document["pairs"] = [row.to_json() for row in pairs]
        print(json.dumps(document))
        return
    out.print(match_table(result, title))
    if deals.key is not None:
        out.print(f"deal key (revealed now the match is over): {deals.key.hex()}")
    for row in pairs:
        out.print(pair_line(row, len(result.stats)))
    if not duplicate and len(result.stats) == 2:
        out.print("(--duplicate for the paired score difference of the two bots, with its interval)", style="dim")
    if records is not None:
        beside = " with deal-key.json" if (records / "deal-key.json").is_file() else ""
        out.print(f"records in {records}/{beside}", markup=False)
