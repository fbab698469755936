"""``rage bench report``: the league report's build time and page weight, beside the rating table's time."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from .bench_table import print_figures
from .common import number_list
from .options import FiguresJsonOption

if TYPE_CHECKING:
    from ..report.bench import ReportFigures


def report_bench_command(
    games: Annotated[str, typer.Option(help="League sizes to measure, comma-separated.")] = "360,10000",
    replays: Annotated[
        int | None, typer.Option(min=0, help="Replays per build: the N most recent games and those with faults.")
    ] = 200,
    as_json: FiguresJsonOption = False,
) -> None:
    """Build the report of synthetic leagues: seconds, pages, bytes; the rating table alone as the baseline."""
    from ..report.bench import measure

    figures = [measure(size, replays) for size in number_list("--games", games, "360,10000")]
    if as_json:
        print(json.dumps([{"games": f.games, "ratings_s": f.ratings_seconds, **f.built.__dict__} for f in figures]))
        return
    columns = ("games", "ratings s", "report s", "replays", "ms/replay", "KiB/replay", "index KiB", "site MiB")
    print_figures(
        f"rage bench report: synthetic amigo leagues, 8 bots, 3 a table, replays for {replays}",
        (*columns, "all replays s, MiB (est.)"),
        [_row(figure) for figure in figures],
        "ratings: the rating table alone (the baseline, as rage ratings computes it); report: the site built from it; "
        "the last column extrapolates to a replay for every game",
    )


def _row(figure: ReportFigures) -> tuple[str, ...]:
    """One league size's figures, the last column extrapolated to a replay for every game."""
    built = figure.built
    count = max(built.replays, 1)
    seconds_each, bytes_each = built.replay_seconds / count, built.replay_bytes / count
    missing = figure.games - built.replays
    return (
        str(figure.games),
        f"{figure.ratings_seconds:.2f}",
        f"{built.seconds:.2f}",
        str(built.replays),
        f"{seconds_each * 1000:.1f}",
        f"{bytes_each / 1024:.0f}",
        f"{built.index_bytes / 1024:.0f}",
        f"{built.total_bytes / 1024 / 1024:.1f}",
        f"{built.seconds + missing * seconds_each:.0f}, {(built.total_bytes + missing * bytes_each) / 2**20:.0f}",
    )
