"""Building a stored submission once, in the sandbox: no network, its limits, a time limit.

The build runs its manifest's ``build`` command in the version's own folder (writable to the build
alone). Its outcome and log (capped) are kept beside the version, so a version is built once.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from ..sandbox import Sandbox
from .store import Submission

BUILD_SECONDS = 300.0
MAX_LOG = 64 * 1024


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


def build(submission: Submission, sandbox: Sandbox, seconds: float = BUILD_SECONDS) -> BuildResult:
    """Build ``submission`` unless it was built already; return the outcome (stored beside it)."""
    outcome_file, log_file = _files(submission)
    if outcome_file.exists():
        stored = json.loads(outcome_file.read_text())
        return BuildResult(stored["ok"], stored["detail"], log_file.read_text(errors="replace"), stored["seconds"])
    if submission.manifest.build is None:
        result = BuildResult(True, "nothing to build", "", 0.0)
    else:
        result = _run(submission, sandbox, seconds)
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
    text = output[-MAX_LOG:].decode(errors="replace")
    log = "".join(char if char.isprintable() or char in "\n\t" else "\ufffd" for char in text)  # a bot wrote it
    return BuildResult(ok, detail, log, round(time.monotonic() - start, 2))
