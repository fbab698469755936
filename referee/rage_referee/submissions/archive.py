"""Unpacking a submitted archive (.tar.gz, .tgz or .zip) without letting it reach outside its folder.

Refused, each with a message naming the entry: absolute paths, ``..``, links (hard links always;
symbolic links pointing outside), device files and FIFOs, and archives that unpack past
:data:`MAX_FILES` entries or :data:`MAX_BYTES` in all (a zip bomb stops at the cap, not after).
"""

from __future__ import annotations

import stat
import tarfile
import zipfile
from pathlib import Path, PurePosixPath

MAX_FILES = 5_000
MAX_BYTES = 200 * 1024 * 1024
CHUNK = 1024 * 1024


class ArchiveError(ValueError):
    """An archive the referee will not unpack; the message names the entry and the problem."""


def safe_name(name: str) -> PurePosixPath:
    """An entry's path, checked to stay inside the folder it is unpacked into."""
    path = PurePosixPath(name)
    if not name or "\\" in name or "\0" in name:
        raise ArchiveError(f"{name!r}: not a plain relative path")
    if path.is_absolute():
        raise ArchiveError(f"{name!r}: an absolute path")
    if ".." in path.parts:
        raise ArchiveError(f"{name!r}: a path with '..'")
    return path


def _inside(root: PurePosixPath, link: str) -> bool:
    """Whether a symbolic link at ``root`` pointing to ``link`` stays inside the archive's folder."""
    if PurePosixPath(link).is_absolute():
        return False
    depth = len(root.parent.parts)
    for part in PurePosixPath(link).parts:
        depth += -1 if part == ".." else 0 if part == "." else 1
        if depth < 0:
            return False
    return True


class _Budget:
    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def entry(self, name: str, size: int) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise ArchiveError(f"more than {MAX_FILES} entries: refused")
        self.spend(name, size)

    def spend(self, name: str, size: int) -> None:
        self.bytes += size
        if self.bytes > MAX_BYTES:
            raise ArchiveError(f"{name!r}: unpacks past {MAX_BYTES // (1024 * 1024)} MiB in all: refused")


def unpack(archive: Path, into: Path) -> None:
    """Unpack ``archive`` into the (new, empty) folder ``into``; :class:`ArchiveError` says why not."""
    into.mkdir(parents=True, exist_ok=False)
    name = archive.name.lower()
    if name.endswith(".zip"):
        _unzip(archive, into)
    elif name.endswith((".tar.gz", ".tgz")):
        _untar(archive, into)
    else:
        raise ArchiveError(f"{archive.name}: expected a .tar.gz, .tgz or .zip archive")


def _untar(archive: Path, into: Path) -> None:
    budget = _Budget()
    try:
        with tarfile.open(archive, "r:gz") as tar:
            while (member := tar.next()) is not None:
                path = safe_name(member.name)
                budget.entry(member.name, member.size)
                if member.islnk():
                    raise ArchiveError(f"{member.name!r}: a hard link")
                if member.issym() and not _inside(path, member.linkname):
                    raise ArchiveError(f"{member.name!r}: a link out of the archive, to {member.linkname!r}")
                if not (member.isfile() or member.isdir() or member.issym()):
                    raise ArchiveError(f"{member.name!r}: a device file, FIFO or other special file")
                tar.extract(member, into, filter="data")
    except (tarfile.TarError, EOFError, OSError) as error:
        raise ArchiveError(f"{archive.name}: not a readable .tar.gz: {error}") from None


def _unzip(archive: Path, into: Path) -> None:
    budget = _Budget()
    try:
        with zipfile.ZipFile(archive) as zip_file:
            for info in zip_file.infolist():
                path = safe_name(info.filename.rstrip("/") if info.is_dir() else info.filename)
                budget.entry(info.filename, 0)
                kind = stat.S_IFMT(info.external_attr >> 16)
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise ArchiveError(f"{info.filename!r}: a link or special file")
                target = into / path
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with zip_file.open(info) as source, target.open("wb") as sink:
                    while chunk := source.read(CHUNK):
                        budget.spend(info.filename, len(chunk))  # what it unpacks to, not what it says
                        sink.write(chunk)
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        raise ArchiveError(f"{archive.name}: not a readable .zip: {error}") from None
