"""``rage bench ratings``: the rating table's time on big leagues, beside its bootstrap fitted the old way."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from .bench_table import print_figures
from .common import number_list
from .options import FiguresJsonOption


def ratings_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "1000,10000",
    as_json: FiguresJsonOption = False,
) -> None:
    """The rating table of synthetic leagues (200 bootstrap resamples), beside the same resamples fitted one
    by one from pair lists, as before (timed on a few and scaled)."""
    from ..league.ratings import BOOTSTRAP_SAMPLES
    from ..ratings_bench import measure

    figures = [measure(size) for size in number_list("--games", games, "1000,10000")]
    if as_json:
        print(json.dumps([figure.to_json() for figure in figures]))
        return
    print_figures(
        f"rage bench ratings: synthetic amigo leagues, 8 bots, 3 a table, {BOOTSTRAP_SAMPLES} resamples",
        ("games", "rating table s", "bootstrap s", "baseline: bootstrap one fit at a time s", "speed-up"),
        [
            (
                str(figure.games),
                f"{figure.table_seconds:.2f}",
                f"{figure.bootstrap_seconds:.2f}",
                f"{figure.baseline_seconds:.1f} (from {figure.baseline_fits} fits)",
                f"{figure.baseline_seconds / figure.bootstrap_seconds:.0f}x",
            )
            for figure in figures
        ],
    )
