"""Standings while a league runs: the top of the table under the progress bar, refitted every N games."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

from rich import box
from rich.console import RenderableType
from rich.progress import Progress, ProgressColumn, Task
from rich.table import Table
from rich.text import Text

from ..text import figure, name_text

if TYPE_CHECKING:
    from ..league.pairs import PairRow
    from ..play.finished import FinishedGame

MAX_NAME = 24


class LiveStandings:
    """The leading ``top`` bots by the maximum-likelihood Elo (no bootstrap), refitted every ``every`` games,
    each with its duplicate score difference over the next one down (:func:`next_cell`)."""

    def __init__(self, games: Iterable[FinishedGame], every: int, top: int) -> None:
        self.games = [replace(game, record={}) for game in games]
        self.every = every
        self.top = top
        self.table: Table | None = None
        self._since = 0
        if self.games:
            self.refit()

    def add(self, game: FinishedGame) -> None:
        """Count a finished game; refit when ``every`` have finished since the last refit."""
        self.games.append(replace(game, record={}))
        self._since += 1
        if self.every and self._since >= self.every:
            self.refit()

    def refit(self) -> None:
        from ..league.pairs import pair_figures, pair_rows
        from ..league.ratings import rating_table  # imported when first needed: choix and scipy take a while

        self._since = 0
        rows = rating_table(self.games, samples=0, with_skill=False)
        names = [row.name for row in rows]
        pairs = pair_rows(pair_figures(self.games, names))  # corrected over the whole table
        adjacent = set(pairwise(names))
        below = {pair.a: pair for pair in pairs if (pair.a, pair.b) in adjacent}
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True, title_justify="left")
        table.title = f"after {len(self.games)} games" + (f", top {self.top}" if len(rows) > self.top else "")
        for k, column in enumerate(("#", "bot", "elo", "games", "score", "place", "faults", "vs next")):
            table.add_column(column, justify="left" if k == 1 else "right", no_wrap=True)
        for place, row in enumerate(rows[: self.top], start=1):
            table.add_row(
                str(place),
                name_text(row.name, MAX_NAME),
                figure(row.elo, ".0f"),
                str(row.games),
                figure(row.mean_score, ".1f"),
                figure(row.mean_place, ".2f"),
                str(row.faults),
                next_cell(below.get(row.name)),
            )
        self.table = table
        if any(row.sets for row in pairs):
            table.caption = (
                "vs next: duplicate score difference over the next bot, 95% confidence sequence (Holm); * separated"
            )


def next_cell(row: PairRow | None) -> str:
    """A bot's difference over the next one down: the mean, ``*`` when separated, and the corrected sequence."""
    if row is None or not row.sets:
        return ""
    mark = "*" if row.separated else ""
    if math.isinf(row.high_corrected):
        return f"{row.difference:+.1f}{mark}"
    return f"{row.difference:+.1f}{mark} {row.low_corrected:+.0f}..{row.high_corrected:+.0f}"


class StandingsProgress(Progress):
    """A progress bar with the live standings beneath it."""

    standings: LiveStandings | None = None

    def get_renderables(self) -> Iterable[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        if self.standings is not None and self.standings.table is not None:
            yield self.standings.table


def run_rate(task: Task) -> float | None:
    """Games a second in this run: those played since it began (``already``: stored before, by a run resumed)
    over its time so far; rich's own speed is of the last games' spacing, 2.4 games/s for games of a minute
    that ended together."""
    played = task.completed - task.fields["already"]
    return played / task.elapsed if played > 0 and task.elapsed else None


class RateColumn(ProgressColumn):
    """This run's :func:`run_rate`."""

    def render(self, task: Task) -> Text:
        rate = run_rate(task)
        return Text("- games/s" if rate is None else f"{rate:.{2 if rate < 1 else 1}f} games/s")


class RemainingColumn(ProgressColumn):
    """The time left at this run's :func:`run_rate`."""

    def render(self, task: Task) -> Text:
        rate = run_rate(task)
        if task.total is None or rate is None:
            return Text("-:--:--")
        left = round((task.total - task.completed) / rate)
        return Text(f"{left // 3600}:{left // 60 % 60:02d}:{left % 60:02d}")
