"""A hosted league's bot logs, read by game: what a submitted bot wrote to its stdout and stderr during one game.

The referee launches a league's submitted bots with their logs in the league's log folder
(:func:`league_logs`): ``NAME.log`` for a bot's first process, ``process-K/NAME.log`` for its K-th
(:class:`~rage_referee.runner.isolation.BotPool`). Beside each log, the referee keeps the span of the
log each game took (:func:`~rage_referee.seats.process.spans_path`). A process may play games at once
(games of other sets): then a game's span holds what the bot wrote for those too, and is withheld
while any of them may not be shown. Bots at addresses run elsewhere: the referee has no log of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..seats.process import GameSpan, read_spans, spans_path
from ..seats.transports import log_file_name
from ..text import bot_text

LOGS_FOLDER = ".logs"
"""The folder of the leagues' bot logs, under the submissions folder (which no bot sees)."""
SHOWN_BYTES = 64 * 1024
"""The most of one game's part of a log read and shown (its start)."""
SHOWN_LINES = 1000
"""The most lines of one game's part of a log shown."""
LINE_CHARS = 300
"""Characters of one line shown (escapes counted), the rest cut with a note."""


@dataclass(frozen=True)
class GameLog:
    """What a bot wrote during one game, each line made printable and capped."""

    bot: str
    game: int
    lines: list[str]
    cut: int
    """Bytes of the game's part of the log not shown (past :data:`SHOWN_BYTES` or :data:`SHOWN_LINES`)."""


def league_logs(root: Path, league: str) -> Path:
    """The log folder of the league ``league`` under the submissions folder ``root``."""
    return root / LOGS_FOLDER / league


def bot_log_files(folder: Path, bot: str) -> list[Path]:
    """The logs of bot ``bot``'s processes in a league's log folder, its first process's first."""
    name = log_file_name(bot)  # letters, digits and ``_.-`` alone: nothing a glob reads as a pattern
    return [folder / name, *sorted(folder.glob(f"process-*/{name}"))]


class BotSpans:
    """Every span of one bot's logs in a league: the latest of each game (a game played again took a new one)."""

    def __init__(self, folder: Path, bot: str) -> None:
        self.by_log = {log: list(read_spans(spans_path(log))) for log in bot_log_files(folder, bot)}
        self.latest: dict[int, tuple[Path, GameSpan]] = {}
        for log, spans in self.by_log.items():
            for span in spans:
                if span.game not in self.latest or span.at >= self.latest[span.game][1].at:
                    self.latest[span.game] = (log, span)

    def withheld(self, game: int, shown: Callable[[int], bool]) -> bool:
        """Whether game ``game``'s span may not be read now: the process played a game meanwhile that may
        not be shown (``shown``)."""
        log, span = self.latest[game]
        return any(other.overlaps(span) and not shown(other.game) for other in self.by_log[log])


def logged_games(folder: Path, bot: str, shown: Callable[[int], bool]) -> set[int]:
    """The games of which ``bot``'s log may be read now (:func:`game_log` finds it and does not withhold it)."""
    spans = BotSpans(folder, bot)
    return {game for game in spans.latest if shown(game) and not spans.withheld(game, shown)}


def game_log(folder: Path, bot: str, game: int, shown: Callable[[int], bool]) -> GameLog:
    """What ``bot`` wrote during game ``game`` of the league whose logs are in ``folder``; ``shown`` tells
    which games may be shown now (game ``game`` must be one).

    :raises LookupError: the referee has no log of the bot in that game, or withholds it: the process
        played games meanwhile that may not be shown yet.
    """
    spans = BotSpans(folder, bot)
    if not shown(game) or game not in spans.latest:
        raise LookupError(
            f"no log of bot {bot!r} in game {game}: the referee keeps the logs of the bots it runs (submitted bots)"
        )
    if spans.withheld(game, shown):
        raise LookupError(
            f"the log of bot {bot!r} in game {game} is withheld until the sets of the games its process played "
            "meanwhile are played"
        )
    log, span = spans.latest[game]
    try:
        with log.open("rb") as file:
            file.seek(span.start)
            data = file.read(min(span.end - span.start, SHOWN_BYTES))
    except OSError as error:
        raise LookupError(f"the log of bot {bot!r} cannot be read: {error.strerror or error}") from None
    kept = data.splitlines(keepends=True)[:SHOWN_LINES]
    lines = [bot_text(line.decode(errors="replace").rstrip("\r\n"), LINE_CHARS) for line in kept]
    return GameLog(bot, game, lines, span.end - span.start - sum(map(len, kept)))
