"""``rage ratings --crosstable``: each pair's head-to-head, in the format asked for."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich import box
from rich.table import Table
from rich.text import Text

from ..text import name_text
from . import markdown
from .common import Format, out

if TYPE_CHECKING:
    from ..play.finished import FinishedGame

LEGEND = (
    "row against column: wins-draws-losses by finishing order in the games both played, "
    "and the Elo difference that score implies"
)


def render_crosstable(games: Sequence[FinishedGame], order: Sequence[str], fmt: Format, title: str) -> None:
    """Print the crosstable of ``games``, rows and columns in ``order`` (the rating table's)."""
    from ..report.tables import crosstable

    cross = crosstable(games)
    pairs = [(a, b, cross[a][b]) for a in order for b in order if a != b and b in cross.get(a, {})]
    if fmt is Format.JSON:
        rows = [
            {"bot": a, "opponent": b, "wins": p.wins, "draws": p.draws, "losses": p.losses, "elo": round(p.elo, 1)}
            for a, b, p in pairs
        ]
        print(json.dumps(rows, indent=1))
        return
    if fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["bot", "opponent", "wins", "draws", "losses", "elo"])
        writer.writerows([a, b, p.wins, p.draws, p.losses, f"{p.elo:.1f}"] for a, b, p in pairs)
        print(buffer.getvalue(), end="")
        return

    def cell(a: str, b: str) -> str:
        if a == b:
            return ""
        pairing = cross.get(a, {}).get(b)
        return "" if pairing is None else f"{pairing.wins}-{pairing.draws}-{pairing.losses} {pairing.elo:+.0f}"

    if fmt is Format.MARKDOWN:
        lines = ([name_text(a), *(cell(a, b) for b in order)] for a in order)
        print("\n".join(markdown.table_lines(["", *map(name_text, order)], lines)))
        return
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    table.add_column("", overflow="fold")  # long names fold: every column is kept, however narrow the terminal
    for b in order:
        table.add_column(name_text(b), justify="right", overflow="fold")
    for a in order:
        cells = []
        for b in order:
            pairing = cross.get(a, {}).get(b)
            style = "" if pairing is None else "green" if pairing.elo > 50 else "red" if pairing.elo < -50 else ""
            cells.append(Text(cell(a, b), style=style))
        table.add_row(name_text(a), *cells)
    out.print(table)
    out.print(LEGEND, style="dim")
