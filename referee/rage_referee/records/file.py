"""Reading a file a user names as a record (or a bundle's file): a regular file only, and only so much of it.

A FIFO, a terminal or a device at a record's path would hold the reader for good (a FIFO waits for a
writer, ``/dev/zero`` never ends), so :func:`read_regular` opens without waiting, looks at what it
opened and reads only a regular file, at most ``limit`` bytes of it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rage_sdk.errors import RageError

from ..limits import MAX_RECORD_BYTES

_KINDS = {
    stat.S_IFDIR: "a folder",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFCHR: "a device",
    stat.S_IFBLK: "a device",
    stat.S_IFSOCK: "a socket",
}


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words (``a FIFO``), for a refusal of what is not a regular file."""
    return _KINDS.get(stat.S_IFMT(mode), "of another kind")


class UnreadableFileError(RageError, ValueError):
    """A file that cannot be read as a record: the message says why, naming no path (the caller names it)."""


def read_regular(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of the regular file at ``path`` (a link to one is followed), at most ``limit`` of them.

    :raises UnreadableFileError: it is missing, unreadable, not a regular file, or larger than ``limit``.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as error:
        raise UnreadableFileError(error.strerror or str(error)) from None
    mode = os.fstat(descriptor).st_mode
    if not stat.S_ISREG(mode):
        os.close(descriptor)
        raise UnreadableFileError(f"not a regular file ({kind_of(mode)})")
    with os.fdopen(descriptor, "rb") as file:
        try:
            data = file.read(limit + 1)
        except OSError as error:
            raise UnreadableFileError(error.strerror or str(error)) from None
    if len(data) > limit:
        size = f"{limit // 2**20} MiB" if limit % 2**20 == 0 else f"{limit:,} bytes"
        raise UnreadableFileError(f"larger than {size}")
    return data
