"""Storing a submission as a version: unpacked (or copied), its manifest checked, named by its hash.

Versions live in ``VERSIONS/NAME/HASH16/``; the same upload twice is the same version, stored once.
A version is complete once its build's outcome is written beside it (``HASH16.build.json``, written
last): a folder without one is what a build killed halfway left, and is stored afresh.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .archive import unpack
from .manifest import MANIFEST, BotManifest, ManifestError, load_manifest
from .version import content_version, short_version

INCOMING = ".incoming-"
"""How the scratch folder a submission is unpacked in, beside its versions, begins."""
OUTCOME = ".build.json"
"""The suffix of a version's build outcome, beside its folder."""


class NameMismatch(ManifestError):
    """A submission whose manifest names another bot than the one it is submitted as; the message names both."""


def outcome_file(folder: Path) -> Path:
    """Where the build outcome of the version in ``folder`` is kept: its presence marks the version complete."""
    return folder.with_suffix(OUTCOME)


def remove_incomplete(folder: Path) -> bool:
    """Remove ``folder``, a version's, unless its build finished (what one killed halfway left, perhaps
    changed by it); return whether it was removed."""
    if not folder.is_dir() or outcome_file(folder).exists():
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


@dataclass(frozen=True)
class Submission:
    """One stored version of a submitted bot."""

    manifest: BotManifest
    version: str
    """``sha256:HEX`` of its files."""
    folder: Path

    @property
    def short(self) -> str:
        return short_version(self.version)


def _top(folder: Path) -> Path:
    """The folder holding the manifest: the archive's top, or the one folder it holds."""
    inner = list(folder.iterdir())
    if not (folder / MANIFEST).exists() and len(inner) == 1 and inner[0].is_dir() and not inner[0].is_symlink():
        return inner[0]
    return folder


def store_submission(source: Path, versions: Path, name: str | None = None) -> Submission:
    """Store ``source`` (a folder, .tar.gz, .tgz or .zip) under ``versions``, as bot ``name`` when given.

    :raises ArchiveError: for an archive or folder that reaches outside itself or is too big.
    :raises ManifestError: for a missing or bad ``rage-bot.toml``; :class:`NameMismatch` for one naming
        another bot than ``name`` (nothing is stored).
    """
    versions.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=INCOMING, dir=versions))
    try:
        unpacked = scratch / "bot"
        if source.is_dir():
            content_version(source)  # refuses links out and special files before anything is copied
            shutil.copytree(source, unpacked, symlinks=True)
        else:
            unpack(source, unpacked)
        top = _top(unpacked)
        manifest = load_manifest(top)
        if name is not None and manifest.name != name:
            raise NameMismatch(
                f"{name!r}, but {MANIFEST} names the bot {manifest.name!r}: "
                f"submit it as {manifest.name}, or name it {name} there"
            )
        version = content_version(top)
        submission = Submission(manifest, version, versions / manifest.name / short_version(version))
        remove_incomplete(submission.folder)
        if not submission.folder.exists():
            submission.folder.parent.mkdir(parents=True, exist_ok=True)
            top.rename(submission.folder)
            submission.folder.chmod(0o755)  # its bot runs as a user of its own
        return submission
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
