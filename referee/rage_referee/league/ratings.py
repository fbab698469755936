"""The rating table: Elo-scale strengths fitted over all games at once, with bootstrap intervals.

Each game's finishing order gives pairwise results (a better place beats a worse one, equal places
draw); a Bradley-Terry model is fitted to all of them by maximum likelihood (``choix``), so the
order in which games were played does not matter. The 95% interval of each rating comes from a
bootstrap over games, or over duplicate sets when deals were replayed (the games of a set share a
deal, so they are resampled together). Beside it: a Bayesian rating for live ladders, OpenSkill's
Plackett-Luce model, shown as mu - 3 sigma.

A seat the referee played for after its bot was forfeited (a ``forfeited`` entry in the game's
faults) is by default not rated on that game: the other seats' results among themselves still
count, unless only one is left. With :attr:`Forfeits.LOSS` the game counts instead as a loss to
every seat that played itself (and a draw with any other forfeited seat). A bot rated on no game
at all is listed last, unrated.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

import choix
import numpy as np
from openskill.models import PlackettLuce

from ..faults import Forfeits
from ..finished import FinishedGame, bot_totals

ELO_PER_NATURAL_UNIT = 400 / math.log(10)
CENTRE = 1500.0
REGULARISATION = 0.01
BOOTSTRAP_SAMPLES = 200


@dataclass(frozen=True)
class RatingRow:
    name: str
    elo: float
    low: float
    high: float
    """The 95% interval."""
    los_next: float | None
    """Likelihood of superiority over the next bot in the table (share of bootstrap fits)."""
    games: int
    mean_score: float
    mean_place: float
    bid_accuracy: float
    faults: int
    skill: float
    """OpenSkill Plackett-Luce mu - 3 sigma."""
    forfeited: int = 0
    """Games in which the referee played for the bot after it was forfeited."""


def counted(games: Sequence[FinishedGame], forfeits: Forfeits = Forfeits.UNRATED) -> list[FinishedGame]:
    """The games as the ratings count them: forfeited seats left out, or placed below every other seat."""
    out = []
    for game in games:
        lost = game.forfeited
        if not lost:
            out.append(game)
            continue
        kept = [seat for seat in range(len(game.seats)) if seat not in lost]
        if forfeits is Forfeits.LOSS:
            # Seats that played keep their order among themselves; forfeited seats share the last place.
            places = tuple(
                len(kept) + 1 if seat in lost else 1 + sum(game.places[o] < game.places[seat] for o in kept)
                for seat in range(len(game.seats))
            )
            out.append(replace(game, places=places))
        elif len(kept) >= 2:  # a seat alone has no one to be rated against
            out.append(
                replace(
                    game,
                    seats=tuple(game.seats[seat] for seat in kept),
                    totals=tuple(game.totals[seat] for seat in kept),
                    places=tuple(game.places[seat] for seat in kept),
                    hits=tuple(game.hits[seat] for seat in kept),
                    faults=(),
                )
            )
    return out


def comparisons(games: Sequence[FinishedGame], index: dict[str, int]) -> list[tuple[int, int]]:
    """Pairwise results ``(winner, loser)``: a win counts twice, a draw once each way (half a win)."""
    pairs: list[tuple[int, int]] = []
    for game in games:
        seats = list(zip(game.seats, game.places))
        for i, (a, place_a) in enumerate(seats):
            for b, place_b in seats[i + 1 :]:
                if place_a < place_b:
                    pairs += [(index[a], index[b])] * 2
                elif place_b < place_a:
                    pairs += [(index[b], index[a])] * 2
                else:
                    pairs += [(index[a], index[b]), (index[b], index[a])]
    return pairs


def fit_elo(games: Sequence[FinishedGame], names: Sequence[str]) -> np.ndarray:
    """Maximum-likelihood Bradley-Terry ratings on the Elo scale, centred on 1500, by ``names``."""
    index = {name: k for k, name in enumerate(names)}
    pairs = comparisons(games, index)
    if not pairs:
        return np.full(len(names), CENTRE)
    strengths = choix.ilsr_pairwise(len(names), pairs, alpha=REGULARISATION)
    elo: np.ndarray = np.asarray(strengths, dtype=float) * ELO_PER_NATURAL_UNIT
    centred: np.ndarray = elo - elo.mean() + CENTRE
    return centred


def bootstrap(
    games: Sequence[FinishedGame], names: Sequence[str], samples: int = BOOTSTRAP_SAMPLES, seed: int = 0
) -> np.ndarray:
    """Ratings refitted on resampled leagues (games of one duplicate set stay together): samples x bots."""
    groups: dict[int, list[FinishedGame]] = defaultdict(list)
    for game in games:
        groups[game.set_id].append(game)
    sets = list(groups.values())
    rng = random.Random(seed)
    fits = []
    for _ in range(samples):
        drawn = [game for _ in sets for game in sets[rng.randrange(len(sets))]]
        fits.append(fit_elo(drawn, names))
    return np.array(fits)


def openskill_ratings(games: Sequence[FinishedGame], names: Sequence[str]) -> dict[str, float]:
    """OpenSkill Plackett-Luce, games in league order; mu - 3 sigma by name."""
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in names}
    for game in sorted(games, key=lambda g: g.index):
        teams = [[ratings[name]] for name in game.seats]
        rated = model.rate(teams, ranks=list(game.places))
        for name, team in zip(game.seats, rated):
            ratings[name] = team[0]
    return {name: rating.ordinal() for name, rating in ratings.items()}


def rating_table(
    games: Sequence[FinishedGame],
    samples: int = BOOTSTRAP_SAMPLES,
    with_skill: bool = True,
    forfeits: Forfeits = Forfeits.UNRATED,
) -> list[RatingRow]:
    """Every bot of ``games``, best first (those rated on no game last).

    ``samples=0`` gives point estimates alone (the interval is the estimate, no LOS), and
    ``with_skill=False`` leaves the OpenSkill column out (NaN): the cheap table for live updates.
    ``forfeits`` says how a game counts for a seat the referee played for after its bot was forfeited.
    """
    every = bot_totals(games)  # faults and forfeits over every game
    faults = {name: bot.faults for name, bot in every.items()}
    forfeited = {name: bot.forfeited_games for name, bot in every.items()}
    games = counted(games, forfeits)
    names = sorted({name for game in games for name in game.seats})
    if not names:
        return [_unrated(name, faults[name], forfeited[name]) for name in sorted(every)]
    elo = fit_elo(games, names)
    fits = bootstrap(games, names, samples) if samples else elo[np.newaxis, :]
    low, high = np.percentile(fits, [2.5, 97.5], axis=0)
    skill = openskill_ratings(games, names) if with_skill else dict.fromkeys(names, math.nan)
    totals = bot_totals(games)  # the figures over the games rated
    order = sorted(range(len(names)), key=lambda k: -elo[k])
    rows = []
    for rank, k in enumerate(order):
        below = order[rank + 1] if rank + 1 < len(order) else None
        los = None if below is None or not samples else float(np.mean(fits[:, k] > fits[:, below]))
        bot = totals[names[k]]
        rows.append(
            RatingRow(
                names[k],
                float(elo[k]),
                float(low[k]),
                float(high[k]),
                los,
                bot.games,
                bot.mean_score,
                bot.mean_place,
                bot.bid_accuracy,
                faults[names[k]],
                skill[names[k]],
                forfeited[names[k]],
            )
        )
    return rows + [_unrated(name, faults[name], forfeited[name]) for name in sorted(every) if name not in totals]


def _unrated(name: str, faults: int, forfeited: int) -> RatingRow:
    """A bot rated on no game (the referee played every game of it)."""
    nan = math.nan
    return RatingRow(name, nan, nan, nan, None, 0, 0.0, 0.0, 0.0, faults, nan, forfeited)
