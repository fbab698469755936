"""A submission's version: the SHA-256 of its files (paths, executable bits and contents), so a
resubmission of the same bot is the same version and any change is a new one."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from .archive import MAX_BYTES, MAX_FILES, ArchiveError


def content_version(folder: Path) -> str:
    """``sha256:HEX`` over every file under ``folder``; links and special files are refused."""
    digest = hashlib.sha256()
    files, size = 0, 0
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_symlink():
            target = os.readlink(path)
            if Path(target).is_absolute() or not path.resolve().is_relative_to(folder.resolve()):
                raise ArchiveError(f"{name!r}: a link out of the folder, to {target!r}")
            digest.update(b"L" + name.encode() + b"\0" + target.encode() + b"\0")
        elif path.is_dir():
            digest.update(b"D" + name.encode() + b"\0")
        elif path.is_file():
            files, size = files + 1, size + path.stat().st_size
            if files > MAX_FILES or size > MAX_BYTES:
                raise ArchiveError(f"more than {MAX_FILES} files or {MAX_BYTES // (1024 * 1024)} MiB: refused")
            mode = b"X" if path.stat().st_mode & 0o111 else b"F"
            digest.update(mode + name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
        else:
            raise ArchiveError(f"{name!r}: a device file, FIFO or other special file")
    return f"sha256:{digest.hexdigest()}"


def short_version(version: str) -> str:
    """A version as standings, logs and folders show it: its first 16 hex digits."""
    return version.removeprefix("sha256:")[:16]
