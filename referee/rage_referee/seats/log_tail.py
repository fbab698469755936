"""The end of a bot's log, read without reading the rest: a bot may write gigabytes to its stderr."""

from __future__ import annotations

import os
from pathlib import Path

TAIL_BYTES = 64 * 1024
"""The most of a log's end read to find its last lines."""


def tail_lines(path: Path, lines: int, since: int = 0) -> list[str]:
    """The last ``lines`` lines of ``path`` after byte offset ``since``, from its last :data:`TAIL_BYTES` at most.

    :raises OSError: the log cannot be read.
    """
    with path.open("rb") as log:
        end = log.seek(0, os.SEEK_END)
        start = max(since, end - TAIL_BYTES)
        log.seek(start)
        text = log.read(end - start).decode(errors="replace")
    found = text.splitlines()
    if start > since and found:
        found = found[1:]  # the first line read is cut: its start lies before what was read
    return found[-lines:] if lines else []
