"""A folder a league's output is written into (its bundle, its report): new, empty, or that league's own.

Each kind of output keeps a marker file naming its league (a bundle's ``league.json``, a report's
``report.json``). A folder holding another league's output, or files of the user's own, is refused: the
league's files would be written over theirs, or mixed in among them.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..records.file import read_regular
from ..text import name_text

MAX_MARKER_BYTES = 2**30
"""The largest marker read (a bundle's league.json names its bots; a report's marker lists its files)."""


def foreign_contents(directory: Path, marker: str, format: str, league: str, output: str) -> str | None:
    """What keeps ``directory`` from taking ``league``'s ``output`` (``bundle``, ``report``), in words: nothing
    (None) when it is missing, holds no file (folders only), or holds that league's own (its ``marker`` file,
    of ``format``, naming ``league``, and no link); else what it holds (``the report of another league, 'cup'``,
    ``files of its own``, ``a link, index.html``)."""
    if not directory.is_dir() or all(path.is_dir() and not path.is_symlink() for path in directory.rglob("*")):
        return None
    written = read_marker(directory / marker, format)
    if written is None:
        return "files of its own"
    if written.get("name") != league:
        return f"the {output} of another league, {name_text(str(written.get('name')))!r}"
    link = next((path for path in directory.rglob("*") if path.is_symlink()), None)
    if link is not None:  # the league's own files are never links: one would be written through, to its target
        return f"a link, {name_text(link.relative_to(directory).as_posix())}"
    return None


def read_marker(path: Path, format: str) -> dict[str, object] | None:
    """The marker at ``path`` when it is a regular file holding a JSON object of ``format``; else None (a FIFO
    is not waited on)."""
    try:
        written = json.loads(read_regular(path, MAX_MARKER_BYTES))
    except (ValueError, RecursionError):  # not a regular file, too large, not JSON, nested too deeply
        return None
    if not isinstance(written, dict) or written.get("format") != format:
        return None
    return written
