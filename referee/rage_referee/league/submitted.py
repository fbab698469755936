"""A league's submitted bots (``submission:PATH``): stored as versions and built before it plays."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from rage_sdk.errors import RageError

from ..play.finished import FinishedGame
from ..sandbox import Sandbox
from ..seats import SUBMISSION
from ..submissions.build import build
from ..submissions.store import Submission, store_submission
from ..submissions.version import short_version
from .config import LeagueConfig


class SubmissionError(RageError, ValueError):
    """A submitted bot that cannot play; the message names the bot."""

    exit_code = 1


def prepare_submissions(config: LeagueConfig, base: Path, sandbox: Sandbox | None) -> dict[str, Submission]:
    """Store and build each submitted bot of the league (in ``base/submissions``), by bot name.

    :raises SubmissionError: for a bad archive or manifest, a failed build, or no sandbox to build in.
    """
    prepared: dict[str, Submission] = {}
    for spec in config.bot_specs():
        if spec.kind != "submission":
            continue
        source = base / spec.target.removeprefix(SUBMISSION)
        try:
            submission = store_submission(source, base / "submissions")
        except (OSError, ValueError) as error:
            raise SubmissionError(f"bot {spec.name}: {source}: {error}") from None
        if submission.manifest.build is not None:
            if sandbox is None:
                raise SubmissionError(f"bot {spec.name}: a submission is built only in the sandbox")
            result = build(submission, sandbox)
            if not result.ok:
                tail = " | ".join(result.log.strip().splitlines()[-3:])[:300]
                raise SubmissionError(
                    f"bot {spec.name}: the build of {submission.short} failed, {result.detail}: {tail}"
                )
        prepared[spec.name] = submission
    return prepared


def pins(submissions: dict[str, Submission]) -> dict[str, str]:
    """The versions a league is pinned to: a stored league resumes only with the same ones."""
    return {name: submission.version for name, submission in sorted(submissions.items())}


def played_versions(games: Iterable[FinishedGame]) -> dict[str, list[str]]:
    """The versions each submitted bot played, by name (16 hex digits each), from the records' ``meta``."""
    played: dict[str, list[str]] = {}
    for game in games:
        bots = game.record.get("meta", {}).get("bots", [])
        for name, seat in zip(game.figures.seats, bots if isinstance(bots, list) else []):
            version = seat.get("submission") if isinstance(seat, dict) else None
            if isinstance(version, str):
                short = short_version(version)
                if short not in played.setdefault(name, []):
                    played[name].append(short)
    return played


def versions_line(games: Iterable[FinishedGame]) -> str | None:
    """``submitted bots' versions: NAME HEX, ...`` for a table's games, or none without submitted bots."""
    played = played_versions(games)
    if not played:
        return None
    return "submitted bots' versions: " + ", ".join(f"{name} {' '.join(v)}" for name, v in sorted(played.items()))
