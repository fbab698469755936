"""Tables as Markdown: the one writer of them, so every cell is escaped alike.

A name is a league file's, a ``--bot`` option's or a bot's own text; in a Markdown cell a ``|`` ends the
cell, a ``\\`` escapes what follows, and ``*``, ``_``, backticks, brackets and ``<`` format, link or open
HTML. :func:`cell` escapes each of them with a backslash (CommonMark's escape of ASCII punctuation);
newlines and other control characters come escaped already from :func:`~rage_referee.text.name_text`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Sequence

SPECIAL = frozenset("\\|`*_~[]<>&$")
"""Characters a cell's text shows only escaped (``$`` opens math, ``&`` an entity)."""


def cell(text: str) -> str:
    """``text`` shown as itself in a Markdown table's cell."""
    return "".join(f"\\{char}" if char in SPECIAL else char for char in text)


def table_lines(
    header: Sequence[str], rows: Iterable[Sequence[str]], text_columns: Collection[int] = (0,)
) -> Iterator[str]:
    """A Markdown table's lines: the ``text_columns`` (by position; the first by default) left-aligned, the
    others right-aligned (numbers), every cell escaped."""
    yield _line(header)
    yield "|" + "|".join("---" if k in text_columns else "---:" for k in range(len(header))) + "|"
    for row in rows:
        yield _line(row)


def _line(cells: Sequence[str]) -> str:
    return "| " + " | ".join(map(cell, cells)) + " |"
