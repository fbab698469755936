"""How ``rage bench`` prints its figures: one table shape for every benchmark."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.table import Table

from .console import out


def figures_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]]) -> Table:
    """A table of figures: the column headed ``""`` holds the rows' labels, left-justified; figures go right."""
    table = Table(title=title)
    for column in columns:
        table.add_column(column, justify="right" if column else "left")
    for row in rows:
        table.add_row(*row)
    return table


def print_figures(title: str, columns: Sequence[str], rows: Iterable[Sequence[str]], *notes: str) -> None:
    """Print :func:`figures_table` and after it each of ``notes``, a line each."""
    out.print(figures_table(title, columns, rows))
    for note in notes:
        out.print(note)
