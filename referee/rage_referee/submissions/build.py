"""Building a stored submission once, in the sandbox: no network, its limits, a time limit, a disk limit.

The build runs its manifest's ``build`` command in the version's own folder (writable to the build
alone). Its outcome and log (capped) are kept beside the version, so a version is built once. A
build that leaves its folder past :data:`MAX_BUILT_BYTES` failed. Without a sandbox (``--no-sandbox``)
the build runs with the referee's rights, in its own process group, with the same time and disk limits.
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..sandbox import MiB, Sandbox
from .store import Submission

BUILD_SECONDS = 300.0
MAX_LOG = 64 * 1024
MAX_BUILT_BYTES = 256 * 1024 * 1024
"""A version's files after its build, at most."""


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    detail: str
    """``built``, ``nothing to build``, ``exit code N`` or ``timed out after N s``."""
    log: str
    seconds: float


def _files(submission: Submission) -> tuple[Path, Path]:
    return submission.folder.with_suffix(".build.json"), submission.folder.with_suffix(".build.log")


def command_of(text: str) -> list[str]:
    """A manifest's command as argv; a leading ``python``/``python3`` is the referee's own Python."""
    argv = shlex.split(text)
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable
    return argv


def folder_bytes(folder: Path) -> int:
    """The size of the files under ``folder`` (links not followed)."""
    return sum(path.lstat().st_size for path in folder.rglob("*") if path.is_file() and not path.is_symlink())


def build(
    submission: Submission,
    sandbox: Sandbox | None,
    seconds: float = BUILD_SECONDS,
    max_bytes: int = MAX_BUILT_BYTES,
) -> BuildResult:
    """Build ``submission`` unless it was built already; return the outcome (stored beside it).

    ``sandbox`` none builds without one, with the referee's rights (``--no-sandbox``).
    """
    outcome_file, log_file = _files(submission)
    if outcome_file.exists():
        stored = json.loads(outcome_file.read_text())
        return BuildResult(stored["ok"], stored["detail"], log_file.read_text(errors="replace"), stored["seconds"])
    if submission.manifest.build is None:
        result = BuildResult(True, "nothing to build", "", 0.0)
    else:
        result = _run(submission, sandbox, seconds) if sandbox is not None else _run_plain(submission, seconds)
        size = folder_bytes(submission.folder)
        if result.ok and size > max_bytes:
            detail = f"left {size // MiB} MiB of files, past the limit of {max_bytes // MiB} MiB"
            result = BuildResult(False, detail, result.log, result.seconds)
    log_file.write_text(result.log)
    outcome_file.write_text(json.dumps({key: value for key, value in asdict(result).items() if key != "log"}))
    return result


def _settle(folder: Path) -> None:
    """Give a built folder back to the referee, readable by all: every bot runs as a user of its own."""
    for path in [folder, *folder.rglob("*")]:
        os.chown(path, 0, 0, follow_symlinks=False)
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
        elif path.is_file() and not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o444)


def _run(submission: Submission, sandbox: Sandbox, seconds: float) -> BuildResult:
    assert submission.manifest.build is not None
    jail = sandbox.jail(submission.folder, fresh=False)
    start = time.monotonic()
    try:
        done = subprocess.run(
            jail.argv(command_of(submission.manifest.build)),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            env=jail.environment(),
            timeout=seconds,
            check=False,
        )
        output, detail = done.stdout + done.stderr, "built" if done.returncode == 0 else f"exit code {done.returncode}"
        ok = done.returncode == 0
    except subprocess.TimeoutExpired as timeout:
        output = (timeout.stdout or b"") + (timeout.stderr or b"")
        ok, detail = False, f"timed out after {seconds:.0f} s"
    finally:
        jail.end()
        _settle(submission.folder)
    return BuildResult(ok, detail, _log_text(output), round(time.monotonic() - start, 2))


def _run_plain(submission: Submission, seconds: float) -> BuildResult:
    """The build without a sandbox: its own process group, killed whole when the time is up."""
    assert submission.manifest.build is not None
    start = time.monotonic()
    process = subprocess.Popen(
        command_of(submission.manifest.build),
        cwd=submission.folder,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=seconds)
        ok, detail = process.returncode == 0, "built" if process.returncode == 0 else f"exit code {process.returncode}"
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        ok, detail = False, f"timed out after {seconds:.0f} s"
    return BuildResult(ok, detail, _log_text(output), round(time.monotonic() - start, 2))


def _log_text(output: bytes) -> str:
    """The last :data:`MAX_LOG` bytes of a build's output, control characters replaced: a bot wrote it."""
    text = output[-MAX_LOG:].decode(errors="replace")
    return "".join(char if char.isprintable() or char in "\n\t" else "\ufffd" for char in text)
