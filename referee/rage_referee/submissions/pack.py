"""Packing a bot's folder for upload: a .tar.gz of what it holds, as it is (links stay links)."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator
from pathlib import Path

CHUNK = 32 * 1024
"""Bytes per message of an upload."""


def pack(folder: Path) -> bytes:
    """``folder``'s files as a .tar.gz, paths relative to it; the referee checks every entry."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in sorted(folder.rglob("*")):
            tar.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
    return buffer.getvalue()


def archive_of(source: Path) -> tuple[str, bytes]:
    """What to upload for ``source``: its format (``tar.gz`` or ``zip``) and bytes; a folder is packed.

    :raises ValueError: for a file that is not a .tar.gz, .tgz or .zip.
    :raises OSError: when it cannot be read.
    """
    if source.is_dir():
        return "tar.gz", pack(source)
    name = source.name.lower()
    if name.endswith((".tar.gz", ".tgz")):
        return "tar.gz", source.read_bytes()
    if name.endswith(".zip"):
        return "zip", source.read_bytes()
    raise ValueError(f"{source}: expected a folder, a .tar.gz or a .zip")


def chunks(data: bytes) -> Iterator[bytes]:
    """``data`` in pieces of :data:`CHUNK` bytes (one empty piece for no data)."""
    yield data[:CHUNK]
    for start in range(CHUNK, len(data), CHUNK):
        yield data[start : start + CHUNK]
