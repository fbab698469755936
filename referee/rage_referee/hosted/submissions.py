"""Hosted submissions: an upload received (capped while it streams), kept as a version, built once.

An upload waits at most :data:`CHUNK_SECONDS` for each message and takes :data:`UPLOAD_SECONDS` in all,
and an entrant (its token and its bots' together) has at most :data:`MAX_UPLOADS_PER_ENTRANT` under way
(the referee :data:`MAX_UPLOADS`), so no caller holds the referee's calls or scratch disk with uploads
it never finishes, nor locks other entrants out.

Each bot's versions live in ``ROOT/BOT/`` (:func:`rage_referee.submissions.store.store_submission`);
a bot keeps at most :data:`MAX_VERSIONS` versions and :data:`MAX_BOT_BYTES` on disk (every entry's
blocks, folders included), an entrant's bots together :data:`MAX_ENTRANT_VERSIONS` and
:data:`MAX_ENTRANT_BYTES`, so no entrant fills the referee's disk; deleting a version frees its place.
A version is built in the sandbox (or, with ``--no-sandbox``, without one) the first time it is
uploaded, waiting its turn in the :class:`~.build_queue.BuildQueue`, its build bounded by the room
left; its outcome and log are kept beside it. A failed build's files are removed (its outcome and log
kept): it counts nothing. A build that cannot start, or a referee stopped halfway through one, leaves
nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar

from ..sandbox import Sandbox, SandboxError, SandboxSettings
from ..submissions.archive import ArchiveError
from ..submissions.build import MAX_BUILT_BYTES, BuildResult, build, folder_bytes
from ..submissions.manifest import ManifestError, load_manifest
from ..submissions.store import (
    INCOMING,
    NameMismatch,
    Submission,
    outcome_file,
    remove_incomplete,
    store_submission,
)
from ..submissions.version import short_version
from .auth import Caller, Role, holder_text
from .build_queue import BuildQueue
from .errors import AlreadyExists, FailedPrecondition, InvalidArgument, NotFound, ResourceExhausted
from .versions import VersionEntry, Versions, now

log = logging.getLogger(__name__)

MiB = 1024 * 1024
MAX_UPLOAD_BYTES = 16 * MiB
"""An upload's bytes, at most: refused as soon as more arrive."""
MAX_VERSIONS = 10
MAX_BOT_BYTES = 256 * MiB
"""A bot's versions on disk, build output included, at most."""
MAX_ENTRANT_VERSIONS = 50
"""Versions of one entrant's bots together, at most."""
MAX_ENTRANT_BYTES = 1024 * MiB
"""One entrant's bots' versions on disk together, at most."""
MAX_TOTAL_BYTES = 20 * 1024 * MiB
"""Every submitted bot's versions together, at most: new bots cannot fill the disk either."""
FORMATS = {"tar.gz": ".tar.gz", "zip": ".zip"}
MAX_UPLOADS_PER_ENTRANT = 2
"""Uploads one entrant (its token and its bots' together) may have under way at once."""
MAX_UPLOADS = 16
"""Uploads the referee receives at once, from every entrant."""
SCRATCH = ".uploads"
"""The folder of ``root`` that uploads are received in."""
CHUNK_SECONDS = 10.0
"""How long an upload may wait for its next message (the first too) before it is refused: an upload
that sends nothing lets its place go soon."""
UPLOAD_SECONDS = 600.0
"""How long one upload may take in all (16 MiB at 28 KiB/s): a message every 29 s holds no place for good."""


def _size(count: int) -> str:
    return f"{count / MiB:.1f} MiB" if count >= MiB else f"{count:,} bytes"


class Chunk(Protocol):
    data: bytes


C = TypeVar("C")
R = TypeVar("R")


async def next_chunk(messages: AsyncIterator[C], deadline: float | None = None) -> C | None:
    """The upload's next message, ``None`` at its end; :class:`ResourceExhausted` after :data:`CHUNK_SECONDS`
    without one, or at ``deadline`` (the event loop's time): a caller that stops sending, or sends a trickle,
    holds neither a call nor scratch disk for good."""
    wait = CHUNK_SECONDS
    if deadline is not None:
        wait = min(wait, deadline - asyncio.get_running_loop().time())
    try:
        return await asyncio.wait_for(anext(messages, None), max(wait, 0.0))
    except TimeoutError:
        if wait < CHUNK_SECONDS:
            raise ResourceExhausted(f"data: the upload took {UPLOAD_SECONDS:g} s, the most it may: refused") from None
        raise ResourceExhausted(f"data: no message came for {CHUNK_SECONDS:g} s: the upload is refused") from None


async def _to_its_end(work: asyncio.Future[R]) -> R:
    """``work``'s result once it is done, even when the waiting task is cancelled meanwhile (the
    cancellation goes on after it)."""
    cancelled = False
    while not work.done():
        try:
            await asyncio.wait({work})
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
    return work.result()


@dataclass(frozen=True)
class SandboxPolicy:
    """How the referee runs submitted bots: in the sandbox, or (``--no-sandbox``) without one."""

    sandbox: Sandbox | None
    refusal: str = ""
    """Why this machine gives no sandbox, when it gives none."""

    @property
    def unsandboxed(self) -> bool:
        """Started with ``--no-sandbox``: submitted bots run with the referee's rights."""
        return self.sandbox is None and not self.refusal

    @staticmethod
    def for_referee(no_sandbox: bool) -> SandboxPolicy:
        """The sandbox this machine gives, ``--no-sandbox``'s none, or none with the reason why."""
        if no_sandbox:
            return SandboxPolicy(None)
        try:
            return SandboxPolicy(Sandbox.available(SandboxSettings(enabled=True)))
        except SandboxError as error:
            return SandboxPolicy(None, str(error))

    def require(self) -> None:
        """:class:`FailedPrecondition` when submitted bots may not run: no sandbox, and no ``--no-sandbox``."""
        if self.refusal:
            raise FailedPrecondition(
                f"the referee runs submitted bots only in the sandbox, which this machine cannot give: {self.refusal} "
                "(the organizer may start it with --no-sandbox)"
            )

    def describe(self) -> str:
        if self.sandbox is not None:
            return self.sandbox.describe()
        if self.refusal:
            return f"no sandbox ({self.refusal}): submitted bots are refused"
        return "no sandbox: the referee was started with --no-sandbox; submitted bots run with its rights"

    def for_league(self, settings: SandboxSettings) -> Sandbox | None:
        """The sandbox of one league: the referee's tools, the league file's limits."""
        if self.sandbox is None:
            return None
        return replace(
            self.sandbox, settings=settings.model_copy(update={"enabled": True}), hidden=list(self.sandbox.hidden)
        )


class Submissions:
    """Every submitted bot's stored versions, on disk under ``root`` and listed in :class:`Versions`."""

    def __init__(
        self,
        root: Path,
        versions: Versions,
        policy: SandboxPolicy | None = None,
        hidden: Iterable[Path] = (),
        build_slots: int = 1,
    ) -> None:
        self.root = root
        self.versions = versions
        self._hidden = [path.resolve() for path in (root, *hidden)]
        """What no bot or build may see, even where the sandbox shows the system: every bot's versions
        and logs, and the database's folder (with the deal keys)."""
        self._policy = policy
        self._locks: dict[str, asyncio.Lock] = {}
        self.builds = BuildQueue(build_slots)
        """``build_slots`` builds at a time (default one: the referee's cores play the games), in turn by entrant."""
        self._uploads: Counter[str] = Counter()
        """Uploads under way, by holder (:attr:`~.auth.Caller.holder`)."""
        self._sweep()

    def _sweep(self) -> None:
        """Remove the scratch a referee stopped with ``kill -9`` left: uploads it was receiving, archives it was
        unpacking, versions it was building (none is under way as it starts; counted in no bot's bytes, they
        filled the disk, and a half-built version was taken as built when uploaded again)."""
        shutil.rmtree(self.root / SCRATCH, ignore_errors=True)
        for folder in self.root.glob(f"*/{INCOMING}*"):
            shutil.rmtree(folder, ignore_errors=True)
        for folder in self.root.glob("*/*/*"):  # BOT/NAME/VERSION (not the logs, nor the scratch: .NAME)
            if folder.relative_to(self.root).parts[0].startswith(".") or folder.is_symlink():
                continue
            if remove_incomplete(folder):
                log.warning("removed %s: its build never finished", folder.relative_to(self.root))

    @property
    def policy(self) -> SandboxPolicy:
        """How submitted bots run; without one given, the sandbox is probed at first use."""
        if self._policy is None:
            self._policy = SandboxPolicy.for_referee(no_sandbox=False)
        if self._policy.sandbox is not None:
            self._policy.sandbox.hidden = list(self._hidden)
        return self._policy

    def check_caller(self, caller: Caller, name: str, registered: bool) -> bool:
        """Whether ``caller`` may submit bot ``name``; return whether it is a new bot.

        An entrant's (or the admin) token submits a new bot; a submitted bot's own token its new versions.
        """
        if caller.role is Role.BOT:
            caller.require_bot(name, "submit its versions")
            if name not in self.versions.submitted():
                raise FailedPrecondition(f"name: bot {name!r} plays at its address; submit code under a new name")
            return False
        caller.require_entrant("submit a new bot")
        if registered:
            raise AlreadyExists(f"name: a bot named {name!r} exists; submit its new versions with its own token")
        return True

    def room(self, name: str, owned: Iterable[str] = ()) -> int:
        """The bytes an upload for ``name`` may have, its entrant's bots being ``owned`` (none for the
        organizer's); :class:`ResourceExhausted` when it has no room left."""
        count, size = self.versions.usage(name)
        if count >= MAX_VERSIONS:
            raise ResourceExhausted(f"name: bot {name!r} keeps {count} versions, the most a bot may: delete one first")
        if size >= MAX_BOT_BYTES:
            raise ResourceExhausted(f"name: bot {name!r} keeps {size // MiB} MiB of versions, the most a bot may")
        held, held_bytes = self.entrant_usage(owned)
        if held >= MAX_ENTRANT_VERSIONS:
            raise ResourceExhausted(
                f"name: the entrant's bots keep {held} versions, the most one entrant's may: delete one first"
            )
        if owned and held_bytes >= MAX_ENTRANT_BYTES:
            raise ResourceExhausted(
                f"name: the entrant's bots keep {_size(held_bytes)} of versions, the most one entrant's may"
            )
        total = self.versions.total_bytes()
        if total >= MAX_TOTAL_BYTES:
            raise ResourceExhausted(f"the referee keeps {_size(total)} of submissions, the most it may")
        entrant_room = MAX_ENTRANT_BYTES - held_bytes if owned else MAX_BOT_BYTES
        return min(MAX_UPLOAD_BYTES, MAX_BOT_BYTES - size, entrant_room, MAX_TOTAL_BYTES - total)

    def entrant_usage(self, owned: Iterable[str]) -> tuple[int, int]:
        """How many versions the bots ``owned`` (an entrant's) keep together, and their bytes."""
        usages = [self.versions.usage(bot) for bot in set(owned)]
        return sum(count for count, _ in usages), sum(size for _, size in usages)

    @contextlib.contextmanager
    def receiving(self, holder: str) -> Iterator[None]:
        """One upload under way from ``holder`` (:attr:`~.auth.Caller.holder`: an entrant, with its bots).

        :raises ResourceExhausted: the holder has :data:`MAX_UPLOADS_PER_ENTRANT` under way already, or the
            referee :data:`MAX_UPLOADS`.
        """
        if self._uploads[holder] >= MAX_UPLOADS_PER_ENTRANT:
            raise ResourceExhausted(
                f"{holder_text(holder)} has {MAX_UPLOADS_PER_ENTRANT} uploads under way already; finish one first"
            )
        total = sum(self._uploads.values())
        if total >= MAX_UPLOADS:
            raise ResourceExhausted(f"the referee receives {total} uploads already; try again later")
        self._uploads[holder] += 1
        try:
            yield
        finally:
            self._uploads[holder] -= 1
            if not self._uploads[holder]:
                del self._uploads[holder]

    def lock(self, name: str) -> asyncio.Lock:
        """Held while one upload of ``name`` is stored and built: two at once would race for its folder."""
        return self._locks.setdefault(name, asyncio.Lock())

    @contextlib.asynccontextmanager
    async def upload(self, fmt: str, first: bytes, rest: AsyncIterator[Chunk], limit: int) -> AsyncIterator[Path]:
        """The upload written to a scratch file, refused with :class:`ResourceExhausted` once past ``limit``."""
        if fmt not in FORMATS:
            raise InvalidArgument("format", f"{fmt!r}: expected {' or '.join(map(repr, FORMATS))}")
        scratch = self.root / SCRATCH
        scratch.mkdir(parents=True, exist_ok=True)
        folder = Path(tempfile.mkdtemp(dir=scratch))
        deadline = asyncio.get_running_loop().time() + UPLOAD_SECONDS
        try:
            path = folder / f"upload{FORMATS[fmt]}"
            size = 0
            with path.open("wb") as sink:
                data = first
                while True:
                    size += len(data)
                    if size > limit:
                        raise ResourceExhausted(
                            f"data: the upload passed {_size(limit)}, the most it may have now: refused"
                        )
                    sink.write(data)
                    chunk = await next_chunk(rest, deadline)
                    if chunk is None:
                        break
                    data = chunk.data
            if size == 0:
                raise InvalidArgument("data", "empty: send the archive's bytes")
            yield path
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    async def accept(
        self, name: str, upload: Path, holder: str = "", owned: Iterable[str] = ()
    ) -> tuple[VersionEntry, BuildResult]:
        """Store the upload as a version of ``name`` and build it (once), in ``holder``'s turn of the build
        queue (its entrant's bots being ``owned``); the lock of ``name`` is held.

        A caller that goes away meanwhile (its call cancelled) waits for the build all the same, holding
        its places (the build's, the upload's, the name's lock): its thread cannot be stopped, and one let go
        would let a caller cancelling each call run any number of builds at once.
        """
        owned = list(owned)
        async with self.builds.slot(holder):
            return await _to_its_end(asyncio.ensure_future(asyncio.to_thread(self._accept, name, upload, owned)))

    def _accept(self, name: str, upload: Path, owned: list[str]) -> tuple[VersionEntry, BuildResult]:
        folder = self.root / name
        existed = folder.exists()
        try:
            submission = store_submission(upload, folder, name)
        except (ArchiveError, ManifestError) as error:
            if not existed:
                shutil.rmtree(folder, ignore_errors=True)
            raise InvalidArgument("name" if isinstance(error, NameMismatch) else "data", str(error)) from None
        known = self.versions.get(name, submission.version)
        room = MAX_BUILT_BYTES
        if known is None:
            room = self._room_for(submission, name, owned)
        try:
            result = build(submission, self.policy.sandbox, max_bytes=room)
        except SandboxError as error:
            self._remove(submission, whole=known is None)
            log.warning("bot %s: version %s cannot be built: %s", name, submission.short, error)
            raise FailedPrecondition("data: the build cannot start in the sandbox on this machine") from None
        except BaseException:
            if known is None or not known.ok:
                self._remove(submission, whole=known is None)
            raise
        if not result.ok:  # nothing of it is kept but its outcome and log: it counts nothing
            shutil.rmtree(submission.folder, ignore_errors=True)
        entry = VersionEntry(
            name,
            submission.version,
            str(submission.folder),
            folder_bytes(submission.folder) if result.ok else 0,
            result.ok,
            result.detail,
            result.seconds,
            now(),
        )
        log.info("bot %s: version %s stored, build: %s", name, entry.short, result.detail)
        return self.versions.add(entry), result

    def _room_for(self, submission: Submission, name: str, owned: list[str]) -> int:
        """The bytes a new version of bot ``name`` may leave once built, its entrant's bots being ``owned``
        (none for the organizer's); :class:`ResourceExhausted` (the version removed) when the version alone
        is past the bot's room, its entrant's or the referee's."""
        _, used = self.versions.usage(name)
        _, held = self.entrant_usage(owned)
        total = self.versions.total_bytes()
        size = folder_bytes(submission.folder)
        rooms = [
            (MAX_BOT_BYTES - used, f"bot {name!r} keeps {_size(used)} of the {_size(MAX_BOT_BYTES)} a bot may"),
            (MAX_TOTAL_BYTES - total, f"the referee keeps {_size(total)} of the {_size(MAX_TOTAL_BYTES)} it may"),
        ]
        if owned:
            rooms.append(
                (
                    MAX_ENTRANT_BYTES - held,
                    f"the entrant's bots keep {_size(held)} of the {_size(MAX_ENTRANT_BYTES)} one entrant's may",
                )
            )
        for room, why in rooms:
            if size > room:
                self._remove(submission)
                raise ResourceExhausted(f"data: this version holds {_size(size)}; {why}")
        return min(MAX_BUILT_BYTES, *(room for room, _ in rooms))

    @staticmethod
    def _remove(submission: Submission, whole: bool = True) -> None:
        """Remove a version's files; ``whole``: its build's outcome and log too (a version no row lists)."""
        shutil.rmtree(submission.folder, ignore_errors=True)
        if whole:
            outcome_file(submission.folder).unlink(missing_ok=True)
            submission.folder.with_suffix(".build.log").unlink(missing_ok=True)

    def delete(self, name: str, version: str, held: Mapping[str, Collection[str]]) -> VersionEntry:
        """Forget a version of ``name`` (``sha256:HEX`` or its short form) and remove its files; the lock of
        ``name`` is held. ``held``: the versions of ``name`` each league or ladder not over plays, by its name.

        :raises NotFound: no such version. :raises FailedPrecondition: a league or ladder plays it, or it is the
            bot's only one.
        """
        versions = self.versions.of(name)
        entry = next((entry for entry in versions if version in (entry.version, entry.short)), None)
        if entry is None:
            raise NotFound(f"version: bot {name!r} has no version {version!r}")
        leagues = sorted(league for league, playing in held.items() if entry.version in playing)
        if leagues:
            raise FailedPrecondition(
                f"version: {entry.short} of bot {name!r} is played by league {', '.join(map(repr, leagues))}: "
                "it is kept while it plays there"
            )
        if len(versions) == 1:
            raise FailedPrecondition(f"version: {entry.short} is bot {name!r}'s only version: submit another first")
        self.versions.forget(name, entry.version)
        folder = Path(entry.folder)
        shutil.rmtree(folder, ignore_errors=True)
        for suffix in (".build.json", ".build.log"):
            folder.with_suffix(suffix).unlink(missing_ok=True)
        log.info("bot %s: version %s deleted (%s freed)", name, entry.short, _size(entry.bytes))
        return entry

    def discard(self, name: str) -> None:
        """Forget every version of a bot that could not be registered after all."""
        self.versions.remove(name)
        shutil.rmtree(self.root / name, ignore_errors=True)

    def build_log(self, entry: VersionEntry) -> str:
        try:
            return Path(entry.folder).with_suffix(".build.log").read_text(errors="replace")
        except OSError:
            return ""

    def submission(self, name: str, version: str) -> Submission:
        """A stored, built version of ``name``, ready to launch."""
        entry = self.versions.get(name, version)
        if entry is None or not entry.ok:
            raise FailedPrecondition(f"bot {name!r}: version {short_version(version)} is not built")
        folder = Path(entry.folder)
        try:
            return Submission(load_manifest(folder), version, folder)
        except ManifestError as error:  # its folder was removed or changed on the referee's machine
            raise FailedPrecondition(f"bot {name!r}: version {entry.short} cannot be read: {error}") from None

    def pins_for(self, league_id: int, bots: Iterable[str]) -> dict[str, str]:
        """The versions the league plays: pinned when it first starts (each bot's current one), kept after."""
        pinned = self.versions.pins(league_id)
        if pinned:
            return pinned
        submitted = self.versions.submitted()
        current: dict[str, str] = {}
        for bot in bots:
            if bot not in submitted:
                continue
            entry = self.versions.current(bot)
            if entry is None:
                raise FailedPrecondition(f"bot {bot!r}: none of its versions built, so it cannot play")
            current[bot] = entry.version
        return self.versions.pin(league_id, current) if current else {}
