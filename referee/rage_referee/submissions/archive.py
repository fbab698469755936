"""Unpacking a submitted archive (.tar.gz, .tgz or .zip) without letting it reach outside its folder.

Refused, each with a message naming the entry: absolute paths, ``..``, paths (and link targets) past
:data:`MAX_NAME` characters or :data:`MAX_DEPTH` folders, links (hard links always;
symbolic links pointing outside, or through another link), an entry at or through a link's path,
device files and FIFOs, and archives that unpack past
:data:`MAX_FILES` entries or :data:`MAX_BYTES` in all (a zip bomb stops at the cap, not after); in a
tar, sparse files and extended headers (long names, pax attributes) past :data:`MAX_HEADER`, which
are read whole into memory. A refusal quotes a name escaped and cut to :data:`SHOWN_NAME` characters.

A tar's headers are all read and checked before anything is written: with no path through a link, where
a link points is its path's business alone, so it is checked on the names, never on the disk (whose
resolution of long chains of links Python's own ``filter="data"`` got wrong, CVE-2025-4517).
"""

from __future__ import annotations

import contextlib
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

from rage_sdk.errors import RageError

MAX_FILES = 5_000
MAX_BYTES = 200 * 1024 * 1024
MAX_HEADER = 64 * 1024
"""A tar's extended header (a GNU long name or link, pax attributes), read whole into memory, at most."""
CHUNK = 1024 * 1024
SHOWN_NAME = 200
"""Characters of an entry's name a refusal quotes."""
MAX_NAME = 1024
"""Characters of an entry's path, or a link's target, at most (a system's longest path is 4,096 bytes)."""
MAX_DEPTH = 64
"""Folders in an entry's path, or steps in a link's target, at most: each check walks them."""


class ArchiveError(RageError, ValueError):
    """An archive the referee will not unpack; the message names the entry and the problem."""


class _CheckedTarInfo(tarfile.TarInfo):
    """A tar header whose extended headers are measured before they are read, and sparse files refused
    (their maps are read into memory too)."""

    def _proc_member(self, tar: tarfile.TarFile) -> tarfile.TarInfo:
        if self.type in _EXTENDED and self.size > MAX_HEADER:
            raise ArchiveError(
                f"an extended header (a long name or link, or pax attributes) of {self.size:,} bytes: "
                f"at most {MAX_HEADER:,}"
            )
        if self.type == tarfile.GNUTYPE_SPARSE:
            raise ArchiveError(f"{_shown(self.name)}: a sparse file")
        member: tarfile.TarInfo = super()._proc_member(tar)  # type: ignore[misc]
        return member

    def _sparse(self, *_: object) -> None:
        raise ArchiveError(f"{_shown(self.name)}: a sparse file")

    _proc_gnusparse_00 = _proc_gnusparse_01 = _proc_gnusparse_10 = _sparse


_EXTENDED = {
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
    tarfile.XHDTYPE,
    tarfile.XGLTYPE,
    tarfile.SOLARIS_XHDTYPE,
}


def _shown(name: str) -> str:
    """An entry's name as a refusal quotes it: escaped, and cut."""
    shown = repr(name[:SHOWN_NAME])
    return shown if len(name) <= SHOWN_NAME else f"{shown}... ({len(name):,} characters)"


def safe_name(name: str) -> PurePosixPath:
    """An entry's path, checked to stay inside the folder it is unpacked into."""
    path = PurePosixPath(name)
    if not name or "\\" in name or "\0" in name:
        raise ArchiveError(f"{_shown(name)}: not a plain relative path")
    _check_length(name, path)
    if path.is_absolute():
        raise ArchiveError(f"{_shown(name)}: an absolute path")
    if ".." in path.parts:
        raise ArchiveError(f"{_shown(name)}: a path with '..'")
    return path


def _check_length(name: str, path: PurePosixPath) -> None:
    """Refuse a path (or link target) past :data:`MAX_NAME` characters or :data:`MAX_DEPTH` parts."""
    if len(name) > MAX_NAME or len(path.parts) > MAX_DEPTH:
        raise ArchiveError(f"{_shown(name)}: longer than {MAX_NAME:,} characters or {MAX_DEPTH} folders deep")


def _through_link(path: PurePosixPath, links: set[PurePosixPath]) -> PurePosixPath | None:
    """The link among ``links`` that ``path`` passes through (one of its folders is a link), if any."""
    return next((folder for folder in path.parents if folder in links), None)


def _link_inside(path: PurePosixPath, target: str, links: set[PurePosixPath]) -> bool:
    """Whether a link at ``path`` pointing to ``target`` stays inside the archive's folder, walked on the names
    alone: no step above the folder, and none through another link (whose ``..`` the names cannot tell)."""
    if PurePosixPath(target).is_absolute():
        return False
    at = path.parent
    for part in PurePosixPath(target).parts:
        if at in links:
            return False
        if part == "..":
            if at == PurePosixPath("."):
                return False
            at = at.parent
        elif part != ".":
            at /= part
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
            raise ArchiveError(f"{_shown(name)}: unpacks past {MAX_BYTES // (1024 * 1024)} MiB in all: refused")


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
    try:
        with tarfile.open(archive, "r:gz", tarinfo=_CheckedTarInfo) as tar:
            for member in _checked_members(tar):
                with _writing(member.name):
                    try:
                        tar.extract(member, into, filter="data")
                    except tarfile.FilterError:  # refused already, by the names; its message names the referee's paths
                        raise ArchiveError(f"{_shown(member.name)}: a link or path out of the archive") from None
    except (tarfile.TarError, EOFError, OSError) as error:
        raise ArchiveError(f"{archive.name}: not a readable .tar.gz: {_without(into, error)}") from None


def _checked_members(tar: tarfile.TarFile) -> list[tarfile.TarInfo]:
    """Every entry of ``tar``, each checked, and then the links among them, before one is written."""
    budget = _Budget()
    members: list[tarfile.TarInfo] = []
    while (member := tar.next()) is not None:
        safe_name(member.name)
        budget.entry(member.name, member.size)
        if member.islnk():
            raise ArchiveError(f"{_shown(member.name)}: a hard link")
        if not (member.isfile() or member.isdir() or member.issym()):
            raise ArchiveError(f"{_shown(member.name)}: a device file, FIFO or other special file")
        if member.issym():
            _check_length(member.linkname, PurePosixPath(member.linkname))
        members.append(member)
    links = {PurePosixPath(member.name) for member in members if member.issym()}
    for member in members:
        path = PurePosixPath(member.name)
        through = _through_link(path, links)
        if through is not None:
            raise ArchiveError(f"{_shown(member.name)}: a path through the link {_shown(str(through))}")
        if path in links and not member.issym():
            raise ArchiveError(f"{_shown(member.name)}: a second entry at the path of a link")
        if member.issym() and not _link_inside(path, member.linkname, links):
            raise ArchiveError(f"{_shown(member.name)}: a link out of the archive, to {_shown(member.linkname)}")
    return members


def _unzip(archive: Path, into: Path) -> None:
    budget = _Budget()
    try:
        with zipfile.ZipFile(archive) as zip_file:
            for info in zip_file.infolist():
                path = safe_name(info.filename.rstrip("/") if info.is_dir() else info.filename)
                budget.entry(info.filename, 0)
                kind = stat.S_IFMT(info.external_attr >> 16)
                if kind not in (0, stat.S_IFREG, stat.S_IFDIR):
                    raise ArchiveError(f"{_shown(info.filename)}: a link or special file")
                target = into / path
                if info.is_dir():
                    with _writing(info.filename):
                        target.mkdir(parents=True, exist_ok=True)
                    continue
                with _writing(info.filename):
                    _unzip_file(zip_file, info, target, budget)
    except (zipfile.BadZipFile, OSError, EOFError) as error:
        raise ArchiveError(f"{archive.name}: not a readable .zip: {_without(into, error)}") from None


def _unzip_file(zip_file: zipfile.ZipFile, info: zipfile.ZipInfo, target: Path, budget: _Budget) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with zip_file.open(info) as source, target.open("wb") as sink:
        while chunk := source.read(CHUNK):
            budget.spend(info.filename, len(chunk))  # what it unpacks to, not what it says
            sink.write(chunk)


def _without(into: Path, error: BaseException) -> str:
    """An error's message without the referee's paths: the folder unpacked into and those above it."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error)
    for folder in (into, *into.parents[:-1]):
        text = text.replace(str(folder), "")
    return text


@contextlib.contextmanager
def _writing(name: str) -> Iterator[None]:
    """Writing an entry: the disk's refusal (a name too long for it, say) names the entry, cut."""
    try:
        yield
    except OSError as error:
        raise ArchiveError(f"{_shown(name)}: cannot be unpacked here: {error.strerror or error}") from None
