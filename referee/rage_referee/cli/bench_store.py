"""``rage bench store``: per-game figures from the store's index, beside deriving them from every record."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .bench_table import print_figures
from .common import number_list
from .options import FiguresJsonOption


def store_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "1000,10000",
    as_json: FiguresJsonOption = False,
) -> None:
    """Every game's figures (seats, totals, places, hits, rounds, faults) of synthetic leagues on SQLite, read
    from the store's index (best of 3 reads), beside reading every record once and deriving them from it."""
    from ..store_bench import measure

    figures = [measure(size) for size in number_list("--games", games, "1000,10000")]
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    print_figures(
        "rage bench store: synthetic amigo leagues on SQLite, 3 a table",
        ("games", "record KB", "database MB", "index s", "baseline: from the records s", "speed-up"),
        [
            (
                str(figure.games),
                f"{figure.record_kb:.1f}",
                f"{figure.database_mb:.0f}",
                f"{figure.index_seconds:.2f}",
                f"{figure.records_seconds:.2f}",
                f"{figure.records_seconds / figure.index_seconds:.0f}x",
            )
            for figure in figures
        ],
    )
