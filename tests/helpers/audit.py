"""Leagues for the memory audit and collusion tests: played in-process on the engine, or drawn from a model."""

from __future__ import annotations

import random
from collections.abc import Mapping

from rage_referee.bench.trial import play_direct
from rage_referee.league.schedule import schedule
from rage_referee.play.finished import FinishedGame
from rage_sdk import Ruleset
from rage_sdk.bot import Bot

from tests.helpers.game_records import scored_game


def played_league(
    classes: Mapping[str, type[Bot]], *, players: int = 3, seed: int = 0, sets_per_table: int = 1
) -> list[FinishedGame]:
    """A duplicate league of ``classes`` (by name) played straight on the engine, games in index order."""
    games = schedule(list(classes), players, games_per_table=sets_per_table * 6, seed=seed)
    return [play_direct(game, Ruleset.of("amigo"), classes) for game in games]


def modelled_league(
    strengths: Mapping[str, float],
    rng: random.Random,
    *,
    players: int = 3,
    sets_per_table: int = 1,
    lift: Mapping[tuple[str, str], float] | None = None,
) -> list[FinishedGame]:
    """A duplicate league drawn from a model of honest play: a total is the hand's worth (drawn for each seat
    of each set) plus the bot's strength plus heavy-tailed noise; ``lift[a, b]`` is added to ``b``'s total
    wherever ``a`` is at the table."""
    games = []
    worth: dict[int, list[float]] = {}
    for game in schedule(list(strengths), players, games_per_table=sets_per_table * 6, seed=rng.randrange(2**31)):
        hands = worth.setdefault(game.set_id, [rng.gauss(40, 25) for _ in range(players)])
        totals = []
        for seat, name in enumerate(game.seats):
            lifted = sum((lift or {}).get((other, name), 0.0) for other in game.seats if other != name)
            noise = rng.gauss(0, 15) * rng.choice((0.5, 1, 2))
            totals.append(round(hands[seat] + strengths[name] + lifted + noise))
        games.append(scored_game(game.index, game.seats, totals=totals, set_id=game.set_id, seed=game.seed))
    return games
