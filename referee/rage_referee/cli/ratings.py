"""``rage ratings``: the rating table of a league, in the format asked for."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich import box
from rich.table import Table

from .common import fail, out

if TYPE_CHECKING:
    from ..league.ratings import RatingRow


class Format(StrEnum):
    TABLE = "table"
    MARKDOWN = "markdown"
    CSV = "csv"
    JSON = "json"


COLUMNS = ("bot", "elo", "95%", "LOS", "games", "score", "place", "bids", "faults", "skill")
LEGEND = (
    "elo: Bradley-Terry maximum likelihood over all games, 95% interval by bootstrap; LOS: likelihood of "
    "superiority over the next bot; score, place: means per game; bids: rounds bid exactly; "
    "skill: OpenSkill Plackett-Luce mu - 3 sigma"
)


def _cells(row: RatingRow) -> list[str]:
    return [
        row.name,
        f"{row.elo:.0f}",
        f"{row.low - row.elo:+.0f}/{row.high - row.elo:+.0f}",
        "" if row.los_next is None else f"{row.los_next:.0%}",
        str(row.games),
        f"{row.mean_score:.1f}",
        f"{row.mean_place:.2f}",
        f"{row.bid_accuracy:.1%}",
        str(row.faults),
        f"{row.skill:.1f}",
    ]


def render(rows: list[RatingRow], fmt: Format, title: str) -> None:
    """Print the table: a Rich table, Markdown, CSV or JSON."""
    if fmt is Format.JSON:
        print(json.dumps([asdict(row) for row in rows], indent=1))
    elif fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(list(asdict(rows[0])) if rows else [])
        writer.writerows(list(asdict(row).values()) for row in rows)
        print(buffer.getvalue(), end="")
    elif fmt is Format.MARKDOWN:
        print("| " + " | ".join(COLUMNS) + " |")
        print("|" + "|".join("---" if k == 0 else "---:" for k in range(len(COLUMNS))) + "|")
        for row in rows:
            print("| " + " | ".join(_cells(row)) + " |")
    else:
        table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
        for k, column in enumerate(COLUMNS):
            table.add_column(column, justify="left" if k == 0 else "right", no_wrap=True)
        for row in rows:
            table.add_row(*_cells(row))
        out.print(table)
        out.print(LEGEND, style="dim")


def ratings_command(
    league: Annotated[Path | None, typer.Option(help="A league file: its database and name.")] = None,
    db: Annotated[str | None, typer.Option(help="A database URL (or SQLite path) instead of a league file.")] = None,
    name: Annotated[str | None, typer.Option(help="The league's name in --db (needed when it holds several).")] = None,
    format: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.TABLE,
    crosstable: Annotated[bool, typer.Option("--crosstable", help="Print each pair's head-to-head instead.")] = False,
) -> None:
    """The rating table of a league: Elo with 95% intervals, LOS, and the figures beside."""
    from ..league.config import LeagueConfigError, load_league
    from ..league.ratings import rating_table
    from ..league.store import Store, StoreError

    if (league is None) == (db is None):
        fail("give --league FILE or --db URL")
    try:
        if league is not None:
            config = load_league(league)
            store = Store(config.database_url(league.parent), create=False)
            league_name = config.name
            key = config.schedule_key()
        else:
            assert db is not None
            store = Store(db if "://" in db else f"sqlite:///{Path(db)}", create=False)
            key = None
            names = store.league_names()
            if name is None and len(names) != 1:
                fail(f"--name: the database holds {len(names)} leagues ({', '.join(names) or 'none'}); name one")
            league_name = name or names[0]
        games = store.games(store.league(league_name, key, create=False))
    except (LeagueConfigError, StoreError) as error:
        fail(str(error))
    if crosstable:
        from .crosstable import render_crosstable

        order = [row.name for row in rating_table(games, samples=0, with_skill=False)]
        render_crosstable(games, order, format, f"{league_name}: {len(games)} games, head to head")
        return
    render(rating_table(games), format, f"{league_name}: {len(games)} games")
