"""A submission's version: the SHA-256 of its files (paths, executable bits and contents), so a
resubmission of the same bot is the same version and any change is a new one."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .archive import MAX_BYTES, MAX_FILES, ArchiveError


def content_version(folder: Path) -> str:
    """``sha256:HEX`` over every file under ``folder``; links and special files are refused."""
    return version_of(content_entries(folder))


def content_entries(folder: Path) -> dict[str, bytes]:
    """What the version hashes of each path under ``folder`` (a folder, a link or a file), by its
    relative name, in hashing order; links out and special files are refused (:class:`ArchiveError`)."""
    entries: dict[str, bytes] = {}
    files, size = 0, 0
    for path in sorted(folder.rglob("*")):
        if path.is_file() and not path.is_symlink():
            files, size = files + 1, size + path.stat().st_size
            if files > MAX_FILES or size > MAX_BYTES:
                raise ArchiveError(f"more than {MAX_FILES} files or {MAX_BYTES // (1024 * 1024)} MiB: refused")
        entries[path.relative_to(folder).as_posix()] = entry_of(folder, path)
    return entries


def entry_of(folder: Path, path: Path) -> bytes:
    """What the version hashes of ``path``, one path under ``folder``."""
    name = path.relative_to(folder).as_posix()
    if path.is_symlink():
        target = os.readlink(path)
        if Path(target).is_absolute() or not path.resolve().is_relative_to(folder.resolve()):
            raise ArchiveError(f"{name!r}: a link out of the folder, to {target!r}")
        return b"L" + name.encode() + b"\0" + target.encode() + b"\0"
    if path.is_dir():
        return b"D" + name.encode() + b"\0"
    if path.is_file():
        mode = b"X" if path.stat().st_mode & 0o111 else b"F"
        return mode + name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest()
    raise ArchiveError(f"{name!r}: a device file, FIFO or other special file")


def version_of(entries: dict[str, bytes]) -> str:
    """The version of a folder of these :func:`content_entries`."""
    return f"sha256:{hashlib.sha256(b''.join(entries.values())).hexdigest()}"


def changed_entry(folder: Path, entries: dict[str, bytes]) -> str | None:
    """The name of the first of ``entries`` that ``folder`` no longer holds as it was, or none."""
    for name, entry in entries.items():
        try:
            if entry_of(folder, folder / name) != entry:
                return name
        except (ArchiveError, OSError):
            return name
    return None


def short_version(version: str) -> str:
    """A version as standings, logs and folders show it: its first 16 hex digits."""
    return version.removeprefix("sha256:")[:16]
