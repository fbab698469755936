"""A submitted bot's built version shipped to the machines that play its games, by its content hash.

The driver packs each version's built folder once (:func:`pack_version`): its files as a .tar.gz and
the hash of the folder as it is built (``sha256:HEX``, :func:`built_hash`; the version's own hash is
of its upload, which the build adds to). A worker keeps what it is shipped in its versions cache
(:func:`cache_root`: ``RAGE_VERSIONS_CACHE``, default ``~/.cache/rage/versions``), one folder per
built hash, so a version crosses the network once per machine; every time a worker takes a version,
from the cache or freshly unpacked, the folder is hashed again and must give the built hash
(:func:`take`), else it is refused (and a cached copy that no longer matches is fetched again).
"""

from __future__ import annotations

import asyncio
import fcntl
import io
import os
import shutil
import tarfile
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from rage_sdk.errors import RageError

from ..submissions.manifest import ManifestError, load_manifest
from ..submissions.pack import pack
from ..submissions.store import Submission
from ..submissions.version import entry_of, short_version, version_of

CACHE_ENV = "RAGE_VERSIONS_CACHE"
"""The folder a worker keeps the versions it is shipped in (default: ``~/.cache/rage/versions``)."""


class ShippingError(RageError, RuntimeError):
    """A version a worker cannot take: its files do not give its hash, or cannot be unpacked; one line."""

    exit_code = 1


@dataclass(frozen=True)
class Shipment:
    """One bot's built version as the driver sends it: its bot, version, built hash and packed files (a Ray
    object reference on a cluster, fetched only by a worker that has not cached it)."""

    bot: str
    version: str
    built: str
    files: object
    """What :func:`pack_version` packed, or a reference that resolves to it."""


def built_hash(folder: Path) -> str:
    """``sha256:HEX`` of every path under ``folder`` as the version's own hash is taken, with no size cap (a
    build may add files past an upload's)."""
    paths = sorted(folder.rglob("*"))
    return version_of({path.relative_to(folder).as_posix(): entry_of(folder, path) for path in paths})


def pack_version(submission: Submission) -> tuple[str, bytes]:
    """A built version's hash and its folder packed (:func:`~rage_referee.submissions.pack.pack`)."""
    return built_hash(submission.folder), pack(submission.folder)


def cache_root() -> Path:
    """This machine's versions cache."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "rage" / "versions"


async def take(shipment: Shipment, fetch: Callable[[], Awaitable[bytes]], root: Path) -> Submission:
    """``shipment``'s version ready to launch here: from the cache under ``root`` when it holds the built hash,
    else fetched (``fetch``), unpacked and checked. The workers of one machine take a version one at a time
    (a lock file beside it), so none replaces a folder another has launched a bot from.

    :raises ShippingError: the files fetched do not give the built hash, or are no version.
    """
    folder = root / shipment.bot / short_version(shipment.built)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / f".{folder.name}.lock").open("w") as lock:
        await asyncio.to_thread(fcntl.flock, lock, fcntl.LOCK_EX)  # released as the file closes
        if not (folder.is_dir() and _matches(folder, shipment.built)):
            _unpacked_into(folder, await fetch(), shipment)
    return _submission(shipment, folder)


def _unpacked_into(folder: Path, data: bytes, shipment: Shipment) -> None:
    """Unpack ``data`` into ``folder`` (replacing what is there) when its files give the built hash."""
    scratch = Path(tempfile.mkdtemp(prefix=".incoming-", dir=folder.parent))
    try:
        unpacked = scratch / "bot"
        try:
            with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
                tar.extractall(unpacked, filter="data")
        except (tarfile.TarError, OSError) as error:
            raise ShippingError(f"version {short_version(shipment.version)}: cannot be unpacked: {error}") from None
        unpacked.chmod(0o755)  # its bot runs as a user of its own
        if not _matches(unpacked, shipment.built):
            raise ShippingError(
                f"version {short_version(shipment.version)}: the files shipped do not give its built hash "
                f"{short_version(shipment.built)}"
            )
        shutil.rmtree(folder, ignore_errors=True)  # a cached copy that no longer matched
        unpacked.rename(folder)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _matches(folder: Path, built: str) -> bool:
    try:
        return built_hash(folder) == built
    except (OSError, ValueError):
        return False


def _submission(shipment: Shipment, folder: Path) -> Submission:
    try:
        return Submission(load_manifest(folder), shipment.version, folder)
    except ManifestError as error:
        raise ShippingError(f"version {short_version(shipment.version)}: {error}") from None
