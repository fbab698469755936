"""A ladder's leaderboard printed: for the terminal, as Markdown, CSV or JSON (``rage referee standings``)."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from rich import box
from rich.table import Table

from ..text import name_text
from . import markdown
from .common import Format, out

if TYPE_CHECKING:
    from rage_sdk.pb import referee_pb2 as pb

NUMERIC = {"rank", "mu", "sigma", "rating", "sets", "games", "difference", "ladder_mu", "ladder_sigma", "ladder_rating"}


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def render_ladder(ladder: pb.Ladder, fmt: Format, final: pb.Ladder | None = None) -> None:
    """Print the leaderboard ``ladder``, then the ``final``'s standings when there are; JSON: one object,
    ``{"league", "sets", "games", "rows", "final"}``."""

    if fmt is Format.JSON:
        document = _document(ladder)
        if final is not None:
            document["final"] = _document(final)
        print(json.dumps(document, indent=1))
        return
    _render(ladder, fmt)
    if final is not None:
        print()
        _render(final, fmt)


def _document(ladder: pb.Ladder) -> dict[str, Any]:
    from ..hosted.ladder_messages import row_fields

    rows = [row_fields(row, ladder.final) for row in ladder.rows]
    return {"league": ladder.league, "sets": ladder.sets, "games": ladder.games, "rows": rows}


def _render(ladder: pb.Ladder, fmt: Format) -> None:
    from ..hosted.ladder_messages import row_fields

    rows = [row_fields(row, ladder.final) for row in ladder.rows]
    columns = list(rows[0]) if rows else ["rank", "bot", "owner", "version", "rating", "status"]
    if fmt is Format.CSV:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(columns)
        writer.writerows([_cell(row.get(column)) for column in columns] for row in rows)
        print(buffer.getvalue(), end="")
        return
    lines = [
        [name_text(row[column]) if column == "bot" else _cell(row.get(column)) for column in columns] for row in rows
    ]
    title = f"{ladder.league}: {'final, ' if ladder.final else ''}{ladder.sets} sets, {ladder.games} games"
    if ladder.final:
        title += " (in the final's order; ladder_*: the version's figures on the ladder)"
    if fmt is Format.MARKDOWN:
        print(f"**{title}**\n")
        text = [k for k, column in enumerate(columns) if column not in NUMERIC]
        print("\n".join(markdown.table_lines(columns, lines, text)))
        return
    table = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for column in columns:
        table.add_column(column, justify="right" if column in NUMERIC else "left", overflow="fold")
    for line in lines:
        table.add_row(*line)
    out.print(table)
