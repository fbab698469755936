"""The live standings under ``rage league run``'s progress bar: the table and each bot's pair with the next."""

from __future__ import annotations

import re

from rage_referee.cli.standings_view import LiveStandings, StandingsProgress
from rich.console import Console

from tests.helpers.game_records import paired_sets


def shown(standings: LiveStandings) -> str:
    console = Console(width=120, record=True)
    assert standings.table is not None
    console.print(standings.table)
    return " ".join(console.export_text().split())


def test_each_bot_shows_its_corrected_sequence_over_the_next_one_down() -> None:
    standings = LiveStandings(paired_sets(20, lead=10, seed=3), every=10, top=8)
    text = shown(standings)
    assert "vs next" in text and "Holm" in text
    # a, separated from b, with the corrected sequence beside; b has no one below
    assert re.search(r" 1 a \d+ 40 [\d.]+ 1\.00 0 \+10\.7\* \+9\.\.\+13 2 b \d+ 40 [\d.]+ 2\.00 0 vs next", text), text


def test_a_few_sets_show_the_difference_without_a_sequence() -> None:
    text = shown(LiveStandings(paired_sets(2, lead=10, seed=3), every=10, top=8))
    assert re.search(r" 1 a \d+ 4 [\d.]+ 1\.00 0 \+11\.5 2 b", text), text


def test_the_progress_bar_gives_this_runs_games_over_its_time() -> None:
    # rich's speed is of the last games' spacing: 6 games of ~25 s that ended close together gave 2.4 games/s,
    # and a resumed run's few games ended 86.3 games/s
    from rage_referee.cli.standings_view import RateColumn, RemainingColumn

    now = [0.0]
    progress = StandingsProgress(RateColumn(), RemainingColumn(), get_time=lambda: now[0])
    task = progress.add_task("league", total=30, completed=18, already=18)  # 18 stored before a resume
    for ended in (100.0, 146.0, 146.5, 147.0, 147.2, 150.0):
        now[0] = ended
        progress.update(task, advance=1)
    rate, left = (column.render(progress.tasks[0]).plain for column in progress.columns)  # type: ignore[union-attr]
    assert (rate, left) == ("0.04 games/s", "0:02:30")  # 6 games in 150 s; 6 more at that rate
