"""The memory audit: later exposures of a duplicate set's deal against the first, by hand and by simulation."""

from __future__ import annotations

import math
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from rage_referee.league.audit import ERROR_RATE, exposure_figures, memory_audit
from rage_referee.league.pairs import duplicate_sets, holm
from rage_referee.league.schedule import duplicate_set
from rage_referee.league.store import Store, sqlite_url
from rage_referee.play.finished import FinishedGame
from rage_sdk.examples.greedy_bot import GreedyBot
from rage_sdk.examples.heuristic_bot import HeuristicBot, SloppyHeuristicBot

from tests.helpers.audit import modelled_league, played_league
from tests.helpers.bots import bot_module
from tests.helpers.game_records import finished_game, scored_game

WORTH = (30, 20, 10, 5)
"""Each seat's hand's worth, the same in every game of a set."""


def one_set(table: tuple[str, ...], gain: dict[int, int], set_id: int = 0) -> list[FinishedGame]:
    """A duplicate set of ``table`` in which each seat scores its hand's worth, and bot ``a`` ``gain[game]`` more."""
    return [
        scored_game(
            game.index,
            game.seats,
            totals=[
                WORTH[seat] + (gain.get(game.index, 0) if name == "a" else 0) for seat, name in enumerate(game.seats)
            ],
            set_id=set_id,
            seed=set_id,
        )
        for game in duplicate_set(table, set_id, set_id, set_id * 100)
    ]


@pytest.mark.parametrize("table", [("a", "b", "c"), ("c", "a", "b"), ("b", "d", "a", "c")])
def test_a_gain_on_every_later_exposure_is_the_figure(table: tuple[str, ...]) -> None:
    games = one_set(table, {index: 6 for index in range(1, 100)})
    others = -6 / (len(table) - 1)  # the others' results are measured against the table's: they lose what a gains
    figures = {name: values[0] for name, values in exposure_figures(games).items()}
    assert figures == pytest.approx({name: 6.0 if name == "a" else others for name in table})


def test_the_first_exposure_is_the_first_game_played() -> None:
    games = one_set(("a", "b", "c"), {0: 6, 1: 6, 2: 6, 4: 6, 5: 6})  # every game but game 3
    played = [3, 0, 1, 2, 4, 5]
    assert exposure_figures(games, played)["a"] == pytest.approx([6.0])
    assert exposure_figures(games)["a"][0] < 0  # in index order game 3 is a later exposure, and a worse one


def test_the_store_gives_the_order_games_ended_in(tmp_path: Path) -> None:
    store = Store(sqlite_url(tmp_path / "league.sqlite"))
    league = store.league("cup", {})
    for index in (2, 0, 1):  # game 2 of a set ended first
        store.add(league, finished_game(index, ("a", "b", "c"), set_id=0))
    assert store.play_order(league) == [2, 0, 1]
    assert [game.index for game in store.games(league)] == [0, 1, 2]


def test_sets_cut_short_and_tables_of_two_give_no_figure() -> None:
    cut = one_set(("a", "b", "c"), {1: 6})[:5]
    two = one_set(("a", "b"), {1: 6}, set_id=1)
    assert exposure_figures(cut + two) == {"a": [], "b": [], "c": []}
    assert memory_audit(cut + two)["a"].sets == 0


def test_holm_steps_down() -> None:
    def rejected(p: list[float]) -> list[bool]:
        return [bool(adjusted <= 0.05) for adjusted in holm(p)[0]]

    assert rejected([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]  # 0.03 > 0.05 / 3
    assert rejected([0.01, 0.016, 0.024, 0.5]) == [True, True, True, False]
    assert rejected([0.02, 0.02]) == [True, True]
    assert rejected([]) == []


def test_audit_has_interval_p_value_and_flag() -> None:
    games = [game for set_id in range(4) for game in one_set(("a", "b", "c"), {}, set_id)]
    rng = random.Random(1)
    gains = {game.index: rng.randint(4, 8) for game in games}
    games = [
        game
        for set_id, members in duplicate_sets(games).items()
        for game in one_set(("a", "b", "c"), {g.index: gains[g.index] for g in members[1:]}, set_id)
    ]
    audit = memory_audit(games)["a"]
    assert audit.sets == 4 and audit.flagged and audit.low < audit.estimate < audit.high
    assert audit.p_value < ERROR_RATE / 3
    assert audit.to_json()["flagged"] is True
    assert not memory_audit(games)["b"].flagged


@pytest.mark.slow
def test_honest_modelled_leagues_are_flagged_at_most_at_the_stated_rate() -> None:
    """300 leagues of five honest bots (3 sets at each of 10 tables) drawn from a model of play in which a
    game's results do not depend on what came before: some bot flagged in at most 5% of them."""
    rng = random.Random(7)
    strengths = {"a": 10.0, "b": 5.0, "c": 0.0, "d": -5.0, "e": -10.0}
    leagues = 300
    flagged = sum(
        any(audit.flagged for audit in memory_audit(modelled_league(strengths, rng, sets_per_table=3)).values())
        for _ in range(leagues)
    )
    assert flagged / leagues <= ERROR_RATE + 2 * math.sqrt(ERROR_RATE * (1 - ERROR_RATE) / leagues)


def test_honest_played_leagues_in_every_playing_order_are_flagged_at_most_at_the_stated_rate() -> None:
    """Real games of honest bots in three leagues, each league's sets taken in 100 random playing orders (an
    honest bot plays each game alike whatever came before, so each order is one the league could have been
    played in): some bot flagged in at most 5% of the 300."""
    classes = {"heuristic": HeuristicBot, "sloppy": SloppyHeuristicBot, "greedy": GreedyBot, "other": HeuristicBot}
    rng = random.Random(3)
    orders = flagged = 0
    for seed in (3, 4, 5):
        games = played_league(classes, seed=seed, sets_per_table=2)
        for _ in range(100):
            order = [game.index for members in duplicate_sets(games).values() for game in rng.sample(members, 6)]
            flagged += any(audit.flagged for audit in memory_audit(games, order).values())
            orders += 1
    assert flagged / orders <= ERROR_RATE + 2 * math.sqrt(ERROR_RATE * (1 - ERROR_RATE) / orders)


@pytest.mark.slow
def test_a_bot_that_remembers_deals_is_flagged_within_six_sets() -> None:
    memorizer = bot_module("memorizer")
    memorizer.MemorizerBot.forget()
    classes = {"memorizer": memorizer.MemorizerBot, "heuristic": HeuristicBot, "sloppy": SloppyHeuristicBot}
    games = played_league(classes, seed=101, sets_per_table=6)
    audits = memory_audit(games)
    assert audits["memorizer"].flagged and audits["memorizer"].sets == 6
    assert audits["memorizer"].estimate > 15
    assert not audits["heuristic"].flagged and not audits["sloppy"].flagged


def test_league_run_ends_with_the_memory_audit_beside_the_ratings(tmp_path: Path) -> None:
    """The table `rage league run` ends with shows each bot's audit, as `rage ratings` does (its column was empty)."""
    from tests.helpers.league import rage, write_league

    result = rage("league", "run", write_league(tmp_path, games=48))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    header = max(k for k, line in enumerate(lines) if line.split()[:2] == ["bot", "elo"])
    assert lines[header].split()[-1] == "memory", lines[header]
    table = "\n".join(lines[header : header + 6])
    for row in lines[header + 2 : header + 5]:  # the top three: every column filled, LOS included
        cells = row.split()
        assert len(cells) >= 11 and re.fullmatch(r"[+-]\d+\.\d", cells[10]), table  # bot ... skill, memory


def test_a_bot_forfeited_in_a_set_has_no_figure_for_it() -> None:
    # the referee's moves for a bot forfeited in every game were audited: '+3.7 ±12.9' for a bot of 0 games
    from rage_referee.faults import Fault, FaultKind

    games = [game for set_id in range(4) for game in one_set(("a", "b", "c"), {1: 6, 2: 6}, set_id)]
    forfeited = [
        replace(
            game,
            figures=replace(
                game.figures, faults=(Fault(game.figures.seats.index("a"), FaultKind.FORFEITED, 1, 0, "x", "b0"),)
            ),
        )
        for game in games
    ]
    audits = memory_audit(forfeited)
    assert memory_audit(games)["a"].sets == 4
    assert (audits["a"].sets, audits["a"].cell, audits["b"].sets) == (0, "-", 4)
