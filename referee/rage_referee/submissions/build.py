"""Building a stored submission once, in the sandbox: no network, its limits, a time limit, a disk limit.

The build runs its manifest's ``build`` command in the version's own folder (writable to the build
alone, and all it sees but the read-only system); it may add files there, but a build that changes or
removes one the version hashed (its ``rage-bot.toml`` among them: the run command) fails, so what runs
is what was hashed. Its outcome and log (its last :data:`MAX_LOG` bytes) are kept beside the version,
the outcome written last: a version is built once, and a folder without its outcome (a build killed
halfway) is no version (:func:`~.store.store_submission` and the referee's start remove it). A build
is killed when its time is up or its folder passes ``max_bytes`` on disk (looked at every
:data:`WATCH_SECONDS`). Without a sandbox (``--no-sandbox``) it runs with the referee's rights, in
its own process group, with the same limits of time and disk.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO

from ..sandbox import MiB, Sandbox
from ..text import name_text
from .store import Submission, outcome_file
from .version import changed_entry, content_entries

BUILD_SECONDS = 300.0
MAX_LOG = 64 * 1024
MAX_BUILT_BYTES = 256 * 1024 * 1024
"""A version's files during and after its build, at most."""
ENTRY_BYTES = 256
"""What each file, folder or link takes besides its blocks (its inode): empty files fill a disk too."""
WATCH_SECONDS = 0.5
"""How often a running build's time and files are looked at."""


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    detail: str
    """``built``, ``nothing to build``, ``exit code N``, ``cannot run PROGRAM: WHY``, ``timed out after N s``,
    ``wrote past N MiB of files`` or ``changed NAME, a file of the version: ...``."""
    log: str
    seconds: float


def _files(submission: Submission) -> tuple[Path, Path]:
    return outcome_file(submission.folder), submission.folder.with_suffix(".build.log")


def command_of(text: str) -> list[str]:
    """A manifest's command as argv; a leading ``python``/``python3`` is the referee's own Python."""
    argv = shlex.split(text)
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def folder_bytes(folder: Path) -> int:
    """What ``folder`` takes on disk: the blocks of every entry under it, folders and links too, and itself
    (links not followed), each entry :data:`ENTRY_BYTES` more; 0 when it is gone."""
    total = 0
    for top, folders, files in os.walk(folder, onerror=lambda _: None):
        for name in [*folders, *files]:
            with contextlib.suppress(OSError):  # gone meanwhile
                total += os.lstat(os.path.join(top, name)).st_blocks * 512 + ENTRY_BYTES
    with contextlib.suppress(OSError):
        total += folder.lstat().st_blocks * 512 + ENTRY_BYTES
    return total


def build(
    submission: Submission,
    sandbox: Sandbox | None,
    seconds: float = BUILD_SECONDS,
    max_bytes: int = MAX_BUILT_BYTES,
) -> BuildResult:
    """Build ``submission`` unless it was built already; return the outcome (stored beside it).

    ``sandbox`` none builds without one, with the referee's rights (``--no-sandbox``).
    """
    outcome, log_file = _files(submission)
    if outcome.exists():
        stored = json.loads(outcome.read_text())
        return BuildResult(stored["ok"], stored["detail"], log_file.read_text(errors="replace"), stored["seconds"])
    if submission.manifest.build is None:
        result = BuildResult(True, "nothing to build", "", 0.0)
    else:
        hashed = content_entries(submission.folder)
        if sandbox is not None:
            result = _run(submission, sandbox, seconds, max_bytes)
        else:
            result = _run_plain(submission, seconds, max_bytes)
        size = folder_bytes(submission.folder)
        if result.ok and size > max_bytes:  # written between two looks
            detail = f"wrote past {_size(max_bytes)} of files"
            result = BuildResult(False, detail, result.log, result.seconds)
        changed = changed_entry(submission.folder, hashed)
        if result.ok and changed is not None:  # what runs is what was hashed, its manifest's commands too
            detail = f"changed {name_text(changed, 200)}, a file of the version: a build may only add files"
            result = BuildResult(False, detail, result.log, result.seconds)
    log_file.write_text(result.log)
    written = outcome.with_suffix(".part")
    written.write_text(json.dumps({key: value for key, value in asdict(result).items() if key != "log"}))
    written.replace(outcome)  # last, and whole: the version is complete
    return result


def _settle(folder: Path) -> None:
    """Give a built folder back to the referee, readable by all: every bot runs as a user of its own."""
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, 0, 0, follow_symlinks=False)
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
        elif path.is_file() and not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o444)


def _run(submission: Submission, sandbox: Sandbox, seconds: float, max_bytes: int) -> BuildResult:
    """The build in the sandbox, as a user of its own; whatever it leaves running is killed after."""
    assert submission.manifest.build is not None
    jail = sandbox.jail(submission.folder, fresh=False)
    try:
        argv = jail.argv(command_of(submission.manifest.build))
        return _supervised(argv, jail.environment(), None, submission.folder, seconds, max_bytes)
    finally:
        jail.end()
        _settle(submission.folder)


def _run_plain(submission: Submission, seconds: float, max_bytes: int) -> BuildResult:
    """The build without a sandbox, in the version's folder, with the referee's rights."""
    assert submission.manifest.build is not None
    argv = command_of(submission.manifest.build)
    return _supervised(argv, None, submission.folder, submission.folder, seconds, max_bytes)


class _Tail(threading.Thread):
    """Drains a build's output as it comes, keeping only its last :data:`MAX_LOG` bytes."""

    def __init__(self, stream: IO[bytes]) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.kept = bytearray()

    def run(self) -> None:
        while chunk := os.read(self.stream.fileno(), 65536):
            self.kept += chunk
            del self.kept[:-MAX_LOG]


def _supervised(
    argv: list[str], env: dict[str, str] | None, cwd: Path | None, folder: Path, seconds: float, max_bytes: int
) -> BuildResult:
    """Run a build in its own process group: killed whole when its time is up or ``folder`` passes ``max_bytes``;
    one whose program cannot be run failed."""
    start = time.monotonic()
    try:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd,
            start_new_session=True,
        )  # fmt: skip
    except OSError as error:  # its program is not there, or not one: the build failed (no path of the referee's)
        return BuildResult(False, f"cannot run {name_text(argv[0], 60)}: {error.strerror or error}", "", 0.0)
    assert process.stdout is not None
    tail = _Tail(process.stdout)
    tail.start()
    stopped = None
    while process.poll() is None and stopped is None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(WATCH_SECONDS)
        if time.monotonic() - start > seconds:
            stopped = f"timed out after {seconds:.0f} s"
        elif folder_bytes(folder) > max_bytes:
            stopped = f"wrote past {_size(max_bytes)} of files"
    if stopped is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    tail.join(5)
    code = process.returncode
    detail = stopped or ("built" if code == 0 else f"exit code {code}")
    return BuildResult(detail == "built", detail, _log_text(bytes(tail.kept)), round(time.monotonic() - start, 2))


def _size(count: int) -> str:
    return f"{count // MiB} MiB" if count % MiB == 0 else f"{count / MiB:.1f} MiB"


def _log_text(output: bytes) -> str:
    """The last :data:`MAX_LOG` bytes of a build's output, control characters replaced: a bot wrote it."""
    text = output[-MAX_LOG:].decode(errors="replace")
    return "".join(char if char.isprintable() or char in "\n\t" else "\ufffd" for char in text)
