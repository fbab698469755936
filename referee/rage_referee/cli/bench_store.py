"""``rage bench store``: per-game figures from the store's index, beside deriving them from every record."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from .common import fail


def store_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "1000,10000",
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Every game's figures (seats, totals, places, hits, rounds, faults) of synthetic leagues on SQLite, read
    from the store's index (best of 3 reads), beside reading every record once and deriving them from it."""
    from ..store_bench import measure

    try:
        sizes = [int(part) for part in games.split(",")]
    except ValueError:
        sizes = []
    if not sizes or any(size < 1 for size in sizes):
        fail(f"--games: {games!r} is not a list of positive numbers such as 1000,10000")
    figures = [measure(size) for size in sizes]
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    table = Table(title="rage bench store: synthetic amigo leagues on SQLite, 3 a table")
    for column in ("games", "record KB", "database MB", "index s", "baseline: from the records s", "speed-up"):
        table.add_column(column, justify="right")
    for figure in figures:
        table.add_row(
            str(figure.games),
            f"{figure.record_kb:.1f}",
            f"{figure.database_mb:.0f}",
            f"{figure.index_seconds:.2f}",
            f"{figure.records_seconds:.2f}",
            f"{figure.records_seconds / figure.index_seconds:.0f}x",
        )
    Console().print(table)
