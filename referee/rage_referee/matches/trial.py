"""``rage test``: is NEW stronger than BASE? Duplicate sets and a sequential test over them.

A set is one deal played at a table of NEW, BASE and field bots in every seating of the table's
balanced design (:mod:`..league.seatings`) and in each of them with NEW and BASE swapped, the field
in place: NEW and BASE hold every hand equally often, against the same field in the same seats.
At 3 players that is the six seatings of the deal. A set's figure is NEW's total minus BASE's over
its games, per game; the sequential test (:class:`.sprt.AnytimeTest`) reads these figures after each
complete set, in set order, so a resumed test reaches the same verdict on the same games. The games are
stored as a league's are, each the moment it ends.

Deals come from a secret key drawn when the test is first stored (kept with its games, so a resumed
test deals on from it; :mod:`..play.deals`), or from an explicit public seed for a repeatable run.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from rage_sdk.rules import Ruleset

from ..league.pairs import Summary
from ..league.schedule import ScheduledGame, duplicate_set
from ..league.seatings import Seating, seatings
from ..league.store import Store
from ..league.superiority import shown
from ..play.deals import Deals
from ..play.finished import FinishedGame
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec, Occasion, TimeControl
from ..runner import LocalRunner
from ..seats import BotSpec
from ..text import names_alike
from .sprt import SPREAD_FLOOR, AnytimeTest, Verdict, elo_of_points, points_for_elo

DEFAULT_ELO1 = 25.0
MAX_ELO1 = 1000.0
"""The widest margin of H1 in Elo (outscoring BASE with probability 0.997); far wider ones round to certainty."""
DEFAULT_TIME = TimeControl()
MIN_GAME_DEVIATION = 1.0
"""An Elo margin is turned into points with one game's deviation taken as at least this (a point, the scoring's
step): while NEW and BASE have played alike in every game, the margin is still above 0 and the test decides."""


def swapped_plan(players: int) -> tuple[Seating, ...]:
    """The seatings of :func:`seatings` and each with table positions 0 and 1 (NEW and BASE) swapped."""
    swap = {0: 1, 1: 0}
    plan = list(seatings(players))
    for seating in seatings(players):
        twin = tuple(swap.get(p, p) for p in seating)
        if twin not in plan:
            plan.append(twin)
    return tuple(plan)


@dataclass(frozen=True)
class TrialConfig:
    """Everything that decides a test's games and its verdict."""

    new: BotSpec
    base: BotSpec
    field: tuple[BotSpec, ...]
    players: int
    ruleset: Ruleset
    seed: int | None = None
    """Public deals from this seed; None: from the test's secret deal key (:func:`trial_deals`)."""
    elo1: float | None = DEFAULT_ELO1
    """The margin of H1 in Elo, or None when it is given in ``points``."""
    points: float | None = None
    alpha: float = 0.05
    beta: float = 0.05
    time: TimeControl = DEFAULT_TIME

    def __post_init__(self) -> None:
        alike = names_alike(spec.name for spec in (self.new, self.base, *self.field))
        if alike is not None:
            raise ValueError(f"bots: {alike}")
        if len(self.field) < self.players - 2:
            need, given = self.players - 2, len(self.field)
            raise ValueError(f"--field: {self.players} players need {need} field bots, not {given}")
        if (self.elo1 is None) == (self.points is None):
            raise ValueError("give the margin in Elo or in points, not both")
        margin, option = (self.elo1, "--elo1") if self.elo1 is not None else (self.points, "--points")
        if margin is None or not 0 < margin < math.inf:  # NaN and infinity too
            raise ValueError(f"{option}: the margin of H1 must be above 0, not {margin}")
        if self.elo1 is not None and self.elo1 > MAX_ELO1:
            raise ValueError(f"--elo1: the margin of H1 must be at most {MAX_ELO1:g} Elo, not {self.elo1:g}")
        self.ruleset.check_players(self.players)
        for rate, value in (("--alpha", self.alpha), ("--beta", self.beta)):
            if not 0 < value < 0.5:  # as the test (AnytimeTest) takes them
                raise ValueError(f"{rate}: a chance between 0 and 0.5 (both excluded), not {value}")

    @property
    def plan(self) -> tuple[Seating, ...]:
        return swapped_plan(self.players)

    @property
    def set_size(self) -> int:
        return len(self.plan)

    def table(self, set_id: int) -> tuple[str, ...]:
        """NEW, BASE and the field bots of set ``set_id`` (the field's combinations in turn)."""
        fields = list(combinations([spec.name for spec in self.field], self.players - 2))
        return (self.new.name, self.base.name, *fields[set_id % len(fields)])

    def games_of(self, set_id: int, deals: Deals | None = None) -> list[ScheduledGame]:
        """Set ``set_id``'s games, dealt from ``deals`` (by default the public seed's)."""
        if deals is None:
            if self.seed is None:
                raise ValueError("a test with secret deals needs its deals (trial_deals)")
            deals = Deals.public(self.seed)
        return duplicate_set(self.table(set_id), deals.seed_for(set_id), set_id, set_id * self.set_size, self.plan)

    def key(self) -> dict[str, Any]:
        """What the games and the verdict depend on: a stored test resumes only under the same. ``test`` is the
        sequential test's: 2, the interval valid at any stopping time (1, the GSPRT, decided other verdicts on the
        same games, and a test it decided has its deal key revealed: it must not play on)."""
        return {
            "test": 2,
            "bots": [[spec.name, spec.target] for spec in (self.new, self.base, *self.field)],
            "players": self.players,
            "ruleset": self.ruleset.to_json(),
            "seed": self.seed,
            "elo1": self.elo1,
            "points": self.points,
            "alpha": self.alpha,
            "beta": self.beta,
        }


@dataclass(frozen=True)
class TrialStatus:
    """Where a test stands after its first ``sets`` complete sets."""

    sets: int
    games: int
    difference: float
    """NEW's total minus BASE's, points per game, the mean over sets."""
    low: float
    high: float
    """The test's interval for the difference, valid at any stopping time (:class:`.sprt.AnytimeTest`)."""
    los: float
    """The chance that NEW is the stronger (a t distribution over the sets)."""
    sigma: float
    """The standard deviation of one game's difference (NEW and BASE on different hands)."""
    margin: float
    """H1's difference in points per game."""
    level: float
    """The interval's coverage: 1 - alpha - beta."""
    verdict: Verdict

    @property
    def elo(self) -> float:
        return elo_of_points(self.difference, self.sigma)

    @property
    def los_shown(self) -> float | None:
        """The LOS as lines and files give it (:func:`~rage_referee.league.superiority.shown`): none from one set."""
        return shown(self.los, self.sets)

    @property
    def elo_interval(self) -> tuple[float, float]:
        return elo_of_points(self.low, self.sigma), elo_of_points(self.high, self.sigma)

    def to_json(self) -> dict[str, Any]:
        low, high = self.elo_interval
        return {
            "verdict": self.verdict.value,
            "sets": self.sets,
            "games": self.games,
            "difference": self.difference,
            "low": finite(self.low),
            "high": finite(self.high),
            "level": self.level,
            "los": self.los_shown,
            "elo": finite(self.elo),
            "elo_low": finite(low),
            "elo_high": finite(high),
            "margin_points": self.margin,
        }


def finite(value: float) -> float | None:
    """``value``, or None (JSON null) for an infinite one."""
    return value if math.isfinite(value) else None


@dataclass
class SetFigures:
    """The figures of a test's complete sets, in set order."""

    differences: list[float]
    """Per set: NEW's total minus BASE's, per game."""
    game_differences: list[float]
    """Per game: NEW's total minus BASE's."""
    games: int = 0


def set_figures(config: TrialConfig, games: Sequence[FinishedGame]) -> SetFigures:
    """The complete sets from set 0 on, up to the first one not complete."""
    by_set: dict[int, list[FinishedGame]] = defaultdict(list)
    for game in games:
        by_set[game.set_id].append(game)
    figures = SetFigures([], [])
    new, base = config.new.name, config.base.name
    set_id = 0
    while len(members := by_set.get(set_id, [])) == config.set_size:
        gaps = [
            game.figures.totals[game.figures.seats.index(new)] - game.figures.totals[game.figures.seats.index(base)]
            for game in members
        ]
        figures.differences.append(sum(gaps) / len(gaps))
        figures.game_differences += gaps
        figures.games += len(gaps)
        set_id += 1
    return figures


def _deviation(values: Sequence[float]) -> float:
    if len(values) < 2:
        return 0.0
    mean = math.fsum(values) / len(values)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in values) / (len(values) - 1))


def status_after(config: TrialConfig, figures: SetFigures, sets: int) -> TrialStatus:
    """The test after the first ``sets`` sets of ``figures``."""
    differences = figures.differences[:sets]
    sigma = _deviation(figures.game_differences[: sets * config.set_size])
    margin = margin_points(config, sigma)
    reading = AnytimeTest(margin, config.alpha, config.beta, least_deviation(margin, sigma)).read(differences)
    return TrialStatus(
        sets,
        sets * config.set_size,
        reading.mean,
        reading.low,
        reading.high,
        Summary.of(differences).los,
        sigma,
        margin,
        1 - config.alpha - config.beta,
        reading.verdict,
    )


def least_deviation(margin: float, sigma: float) -> float:
    """The deviation a set's figure is taken to have at least: ``SPREAD_FLOOR`` margins, but no more than one
    game's deviation ``sigma`` (at least :data:`MIN_GAME_DEVIATION`), as the mean of a set's games spreads no
    more than one of them; past some 130 Elo a margin's floor would otherwise hold the test up for nothing."""
    return min(SPREAD_FLOOR * margin, max(sigma, MIN_GAME_DEVIATION))


def margin_points(config: TrialConfig, sigma: float) -> float:
    """H1's margin in points a game: ``--points``, or ``--elo1`` at one game's deviation ``sigma`` (at least
    :data:`MIN_GAME_DEVIATION`)."""
    if config.points is not None:
        return config.points
    return points_for_elo(config.elo1 or 0.0, max(sigma, MIN_GAME_DEVIATION))


def first_status(config: TrialConfig, figures: SetFigures, max_sets: int | None = None) -> TrialStatus:
    """The status at the first set that reached a verdict, or after all sets (at most ``max_sets``)."""
    last = len(figures.differences) if max_sets is None else min(max_sets, len(figures.differences))
    for sets in range(1, last + 1):
        status = status_after(config, figures, sets)
        if status.verdict is not Verdict.UNDECIDED:
            return status
    return status_after(config, figures, last)


def trial_deals(config: TrialConfig, store: Store, trial_id: int) -> Deals:
    """Public deals for an explicit seed; otherwise the test's secret key, drawn and stored when it has none."""
    if config.seed is not None:
        return Deals.public(config.seed)
    stored_key = store.deal_key(trial_id, create=True)
    assert stored_key is not None
    return Deals(stored_key.key)


def max_sets_for(config: TrialConfig, max_games: int) -> int:
    return max(1, max_games // config.set_size)


async def run_trial(
    config: TrialConfig,
    store: Store,
    trial_id: int,
    max_games: int,
    concurrency: int = 8,
    log_dir: Path = Path("logs"),
    on_status: Callable[[TrialStatus], None] | None = None,
    on_game: Callable[[FinishedGame], None] | None = None,
) -> TrialStatus:
    """Play sets until the test decides or ``max_games`` are played; resume from what ``store`` holds."""
    max_sets = max_sets_for(config, max_games)
    games = store.games(trial_id)
    status = first_status(config, set_figures(config, games), max_sets)
    if status.verdict is not Verdict.UNDECIDED or status.sets >= max_sets:
        return status
    deals = trial_deals(config, store, trial_id)
    specs = (config.new, config.base, *config.field)
    ledger = FaultLedger(config.time.max_faults)
    size = config.set_size
    batch = max(1, math.ceil(concurrency / size))

    def finished(game: FinishedGame) -> None:
        store.add(trial_id, game)
        games.append(game)
        if on_game is not None:
            on_game(game)

    async with LocalRunner(specs, ledger, concurrency, log_dir) as runner:
        while status.verdict is Verdict.UNDECIDED and status.sets < max_sets:
            done = {game.index for game in games}
            todo = [
                GameSpec(game.index, config.ruleset, game.seats, game.seed, config.time, Occasion(set_id=set_id))
                for set_id in range(status.sets, min(status.sets + batch, max_sets))
                for game in config.games_of(set_id, deals)
                if game.index not in done
            ]
            await runner.run(todo, finished)
            figures = set_figures(config, games)
            for sets in range(status.sets + 1, min(len(figures.differences), max_sets) + 1):
                status = status_after(config, figures, sets)
                if on_status is not None:
                    on_status(status)
                if status.verdict is not Verdict.UNDECIDED:
                    break
    return status
