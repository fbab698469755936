"""The end of a bot's log, read without reading the rest: a bot may write gigabytes to its stderr."""

from __future__ import annotations

import os
from pathlib import Path

TAIL_BYTES = 64 * 1024
"""The most of a log's end read to find its last lines."""
CUT_LINE_CHARS = 150
"""Characters kept of the end of a last line longer than :data:`TAIL_BYTES` (its start is not read): fewer
than a quote of a line shows, so the quote keeps the very end."""


def tail_lines(path: Path, lines: int, since: int = 0) -> list[str]:
    """The last ``lines`` lines of ``path`` after byte offset ``since``, from its last :data:`TAIL_BYTES` at most.

    A line whose start lies before what was read is left out, unless no other line follows it: then the
    bot's last words are that line's end, its last :data:`CUT_LINE_CHARS` characters after a ``…``.

    :raises OSError: the log cannot be read.
    """
    with path.open("rb") as log:
        end = log.seek(0, os.SEEK_END)
        start = max(since, end - TAIL_BYTES)
        log.seek(start)
        text = log.read(end - start).decode(errors="replace")
    found = text.splitlines()
    if start > since and found:
        cut, found = found[0], found[1:]
        if cut.strip() and not any(line.strip() for line in found):
            found = [f"…{cut[-CUT_LINE_CHARS:]}"]
    return found[-lines:] if lines else []
