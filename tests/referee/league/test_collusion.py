"""Collusion: a bot's effect on another's duplicate result against the same field, by hand and by simulation."""

from __future__ import annotations

import math
import random

import pytest
from rage_referee.league.audit import ERROR_RATE
from rage_referee.league.collusion import collusion_table, presence_effect, presence_figures, set_gaps
from rage_referee.league.schedule import schedule
from rage_referee.play.finished import FinishedGame
from rage_sdk.examples.greedy_bot import GreedyBot
from rage_sdk.examples.heuristic_bot import HeuristicBot, SloppyHeuristicBot

from tests.helpers.audit import modelled_league, played_league
from tests.helpers.bots import bot_module
from tests.helpers.game_records import scored_game

STRENGTH = {"a": 0, "b": 10, "c": 4, "d": -6}


def league(lift: int) -> list[FinishedGame]:
    """Four bots at tables of three, a set each, each scoring its strength; ``b`` ``lift`` more beside ``a``."""
    return [
        scored_game(
            game.index,
            game.seats,
            totals=[STRENGTH[name] + (lift if name == "b" and "a" in game.seats else 0) for name in game.seats],
            set_id=game.set_id,
            seed=game.seed,
        )
        for game in schedule(list(STRENGTH), 3, games_per_table=6, seed=1)
    ]


def test_presence_compares_the_same_field_with_and_without_the_bot() -> None:
    sets = set_gaps(league(lift=0))
    present, absent = presence_figures(sets, "a", "b")
    # with a: b over c (6) and over d (16); without a: b over c and d together, (6 + 16) / 2
    assert sorted(present) == [6.0, 16.0] and absent == [11.0]
    present, absent = presence_figures(set_gaps(league(lift=5)), "a", "b")
    assert sorted(present) == [11.0, 21.0] and absent == [11.0]
    present_b, absent_b = presence_figures(sets, "b", "a")  # b's presence on a: a over c, over d; over both
    assert sorted(present_b) == [-4.0, 6.0] and absent_b == [1.0]
    # a's own strength does not count: a weak a lifts no one
    assert math.fsum(present) / 2 - absent[0] == pytest.approx(5.0)


def test_presence_effect_is_welchs_difference() -> None:
    effect = presence_effect([5.0, 7.0, 9.0], [1.0, 2.0, 3.0, 2.0])
    assert effect.estimate == pytest.approx(5.0)
    assert effect.low < 5 < effect.high and effect.p_value < 0.05
    assert effect.sets == 7
    assert math.isinf(presence_effect([5.0], [1.0, 2.0]).high)  # one set: nothing to know the spread by


def test_rows_are_every_ordered_pair() -> None:
    rows = collusion_table(league(lift=0), list(STRENGTH))
    assert [(row.a, row.b) for row in rows][:3] == [("a", "b"), ("a", "c"), ("a", "d")]
    assert len(rows) == 12 and not any(row.audit.flagged for row in rows)
    assert set(rows[0].to_json()) >= {"a", "b", "estimate", "low", "high", "sets", "p_value", "flagged"}


@pytest.mark.slow
def test_honest_modelled_pairs_are_flagged_at_most_at_the_stated_rate() -> None:
    """300 leagues of five honest bots (3 sets at each of 10 tables) from a model of play in which a bot's
    result is its strength and its hand's worth: some ordered pair flagged in at most 5% of them."""
    rng = random.Random(11)
    strengths = {"a": 20.0, "b": 5.0, "c": 0.0, "d": -5.0, "e": -20.0}
    leagues = 300
    flagged = sum(
        any(row.audit.flagged for row in collusion_table(modelled_league(strengths, rng, sets_per_table=3), "abcde"))
        for _ in range(leagues)
    )
    assert flagged / leagues <= ERROR_RATE + 2 * math.sqrt(ERROR_RATE * (1 - ERROR_RATE) / leagues)


def test_a_modelled_lift_is_flagged_and_the_largest() -> None:
    """The lifted bot's rivals lose at the pair's tables, which moves the other pairs' figures a little (a
    fraction of the lift): the pair's own stands above them."""
    rng = random.Random(5)
    strengths = {"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0, "e": 0.0}
    games = modelled_league(strengths, rng, sets_per_table=4, lift={("a", "b"): 15.0})
    rows = {(row.a, row.b): row.audit for row in collusion_table(games, "abcde")}
    assert rows["a", "b"].flagged and rows["a", "b"].estimate > 10
    assert max(rows, key=lambda pair: rows[pair].estimate) == ("a", "b")


@pytest.mark.slow
def test_a_bot_that_feeds_its_partner_is_flagged() -> None:
    feeder = bot_module("feeder").feeder_of("partner")
    classes = {"feeder": feeder, "partner": HeuristicBot, "heuristic": HeuristicBot, "sloppy": SloppyHeuristicBot}
    classes |= {"greedy": GreedyBot}
    games = played_league(classes, seed=1, sets_per_table=5)
    rows = {(row.a, row.b): row.audit for row in collusion_table(games, list(classes))}
    assert rows["feeder", "partner"].flagged and rows["feeder", "partner"].estimate > 5
    assert not any(
        audit.flagged for (a, b), audit in rows.items() if "feeder" not in (a, b) and "partner" not in (a, b)
    )
