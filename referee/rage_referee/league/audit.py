"""The memory audit: does a bot do better on a deal it has played before?

A duplicate set deals one deal to a table in every seating, so from its second game on a bot has
seen the deal; a bot that remembers the hands can play its later games knowing them. For each bot
and each complete set it played (every bot of the table in each seat equally often), each game gives
the bot's result: its total less the seat mean (the mean total of that seat, that hand, over the
set's games, so the luck of the hand cancels), less the mean of the same for the table's other bots
(so a game that scores high or low for every seat cancels too, and a bot whose memory changes the
others' scores does not flag them). The set gives one figure:

    (G - 1) / (G - 2) * (mean of the bot's results on its later exposures - its result on its first)

for a set of G games. The seat means hold the bot's own later games, so a bot that scores g points more
on every later exposure moves the bracket by g (G - 2) / (G - 1); the factor makes the figure g, points
a game.

The first exposure is the bot's first game of the set in playing order: the order the games were
stored in, that is the order they ended (``order``; the league's index order when not given). Games
of a set played at the same time count by when they ended: a game that began before the first one
ended is a later exposure that may not have had the deal to remember, which only dilutes the figure.
A table of two gives no figure: a bot's result over the other's is the same in both games of its set. A
bot forfeited in a game of the set gives none for it either: the referee played for it there, with no
memory to audit (a bot forfeited in every game has no figure at all).

Without memory the figure's mean is zero: a set's first game seats the table in a seating drawn
uniformly (the table's order is shuffled for each set, :mod:`.schedule`), as each later game does, so
the first game and any later one are alike but for the bot's memory. A bot that learns as the league
goes on, not from the deal, gains only the little its later games lie later. Sets are independent, so
the figures' mean (points per game) has a Student t interval; the test is one-sided (later games
better) at :data:`ERROR_RATE`, Holm-corrected across the bots audited, so an honest field has some
bot flagged in at most that share of leagues.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import TypeVar

from scipy import stats

from ..play.finished import FinishedGame
from .pairs import Summary, duplicate_sets, holm

ERROR_RATE = 0.05
"""The chance that an honest league has any bot (or pair) flagged."""
K = TypeVar("K")


@dataclass(frozen=True)
class Audit:
    """One bot's (or pair's) test: the mean of ``sets`` set figures, points per game, and its verdict."""

    sets: int
    estimate: float
    low: float
    high: float
    """The 95% t interval; infinite under two sets."""
    p_value: float
    """One-sided: the chance of an estimate this high or higher without the effect."""
    flagged: bool
    """Beyond :data:`ERROR_RATE`, corrected for the number of bots (or pairs) tested."""

    def to_json(self) -> dict[str, object]:
        """The fields, an interval too wide to know (under two sets) as nulls."""
        return {key: None if isinstance(v, float) and math.isinf(v) else v for key, v in asdict(self).items()}

    @property
    def cell(self) -> str:
        """``+4.1 ±2.0`` with ``!`` when flagged; ``-`` without sets."""
        if not self.sets:
            return "-"
        spread = "" if math.isinf(self.high) else f" ±{(self.high - self.low) / 2:.1f}"
        return f"{self.estimate:+.1f}{spread}{' !' if self.flagged else ''}"


def flagged(tests: Mapping[K, Audit], rate: float = ERROR_RATE) -> dict[K, Audit]:
    """The ``tests`` with ``flagged`` set by Holm's correction across those with an interval (two sets or more)."""
    tested = [key for key, test in tests.items() if not math.isinf(test.high)]
    adjusted, _ = holm([tests[key].p_value for key in tested])
    flags = {key: bool(p <= rate) for key, p in zip(tested, adjusted)}
    return {key: replace(test, flagged=flags.get(key, False)) for key, test in tests.items()}


def one_sided(values: Sequence[float]) -> Audit:
    """The t test that ``values``' mean is above zero (unflagged); p 1 under two values."""
    s = Summary.of(values)
    if s.n < 2:
        return Audit(s.n, s.mean, s.low, s.high, 1.0, False)
    error = statistics.stdev(values) / math.sqrt(s.n)
    p_value = float(stats.t.sf(s.mean / error, s.n - 1)) if error > 0 else float(s.mean <= 0)
    return Audit(s.n, s.mean, s.low, s.high, p_value, False)


def exposure_figures(games: Sequence[FinishedGame], order: Sequence[int] | None = None) -> dict[str, list[float]]:
    """Each bot's set figures (later exposures less the first, against the seat means), sets in id order."""
    rank = {index: k for k, index in enumerate(order)} if order is not None else {}
    figures: dict[str, list[float]] = {name: [] for game in games for name in game.figures.seats}
    for members in duplicate_sets(games).values():
        seats = {name: Counter[int]() for game in members for name in game.figures.seats}
        for game in members:
            for seat, name in enumerate(game.figures.seats):
                seats[name][seat] += 1
        counts = list(seats.values())
        if len(seats) < 3 or any(count != counts[0] for count in counts) or counts[0].total() < 3:
            continue  # two bots, cut short, or not a duplicate set
        totals: dict[int, list[int]] = {}
        for game in members:
            for seat, total in enumerate(game.figures.totals):
                totals.setdefault(seat, []).append(total)
        seat_mean = {seat: math.fsum(values) / len(values) for seat, values in totals.items()}
        played = sorted(members, key=lambda game: (rank.get(game.index, math.inf), game.index))
        # each game's results against the seat means, and each bot's over the mean of the table's others
        results = [[total - seat_mean[seat] for seat, total in enumerate(game.figures.totals)] for game in played]
        forfeited = {game.figures.seats[seat] for game in members for seat in game.figures.forfeited}
        for name in seats.keys() - forfeited:
            over = []
            for game, result in zip(played, results):
                own = game.figures.seats.index(name)
                others = [value for seat, value in enumerate(result) if seat != own]
                over.append(result[own] - math.fsum(others) / len(others))
            change = math.fsum(over[1:]) / (len(over) - 1) - over[0]
            figures[name].append(change * (len(over) - 1) / (len(over) - 2))
    return figures


def memory_audit(
    games: Sequence[FinishedGame], order: Sequence[int] | None = None, rate: float = ERROR_RATE
) -> dict[str, Audit]:
    """Every bot's memory audit by name: later exposures of a deal against the first (module docstring)."""
    return flagged({name: one_sided(values) for name, values in exposure_figures(games, order).items()}, rate)
