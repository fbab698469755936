"""``rage bench test``: how many games ``rage test`` needs, beside its earlier test and a head-to-head SPRT.

Each run plays the duplicate sets of :mod:`..matches.trial` (new seed per run) between in-process bots,
straight on the engine (no referee: the statistics do not depend on the transport, and the runs
go six times faster). On the same stream of games three tests run side by side: ``rage test``'s
(:class:`..matches.sprt.AnytimeTest` on the per-set score differences), the GSPRT it used before
(:class:`..matches.sprt.Sprt`, a normal model) on the same figures, and the baseline, that GSPRT on each
game's head-to-head result (NEW finished above BASE: 1, level: 1/2, below: 0) with H1 at the same
Elo margin. A run goes on until all decided or ``cap`` games.

``rage bench sprt``: both tests' error rates and lengths on synthetic and resampled set differences
(:func:`scenarios`, :func:`compare`), and the time a verdict takes as a long stream comes in, by
running sums against the baseline of summing every figure again (:func:`verdict_speed`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rage_sdk import Ruleset
from rage_sdk.bot import Bot
from rage_sdk.table import play_table

from ..league.schedule import ScheduledGame
from ..matches.sprt import AnytimeTest, Sprt, Verdict, points_for_elo, score_of_elo
from ..matches.trial import DEFAULT_ELO1, TrialConfig, set_figures, status_after
from ..play.finished import FinishedGame, figures_played
from ..seats import BotSpec, load_bot_class

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
HEURISTIC = f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot"
SLOPPY = f"{EXAMPLES / 'heuristic_bot.py'}:SloppyHeuristicBot"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"


def play_direct(game: ScheduledGame, ruleset: Ruleset, classes: Mapping[str, type[Bot]]) -> FinishedGame:
    """One game at an in-process table, each seat's bot a fresh instance."""
    bots = [classes[name]() for name in game.seats]
    state = play_table(ruleset, bots, game.seed, game=game.index, names=game.seats, decision_ms=1000, bank_ms=1000)
    return FinishedGame(game.index, game.set_id, game.seed, figures_played(game.seats, state))


@dataclass(frozen=True)
class RunResult:
    paired: Verdict
    paired_games: int
    baseline: Verdict
    baseline_games: int
    earlier: Verdict = Verdict.UNDECIDED
    """The GSPRT rage test used before, on the same sets."""
    earlier_games: int = 0


def head_to_head(games: list[FinishedGame], new: str, base: str) -> list[float]:
    """Each game's result for ``new`` against ``base`` at the same table: 1, 1/2 or 0."""
    scores = []
    for game in sorted(games, key=lambda g: g.index):
        figures = game.figures
        a, b = figures.totals[figures.seats.index(new)], figures.totals[figures.seats.index(base)]
        scores.append(1.0 if a > b else 0.5 if a == b else 0.0)
    return scores


def one_run(
    new: str, base: str, field: str, seed: int, cap: int, elo1: float = DEFAULT_ELO1, with_baseline: bool = True
) -> RunResult:
    """Sets between ``new`` and ``base`` (``FILE.py:CLASS``) with ``field`` at 3 players until both tests decide."""
    field_spec = (BotSpec.of("field", field),)
    config = TrialConfig(
        BotSpec.of("new", new), BotSpec.of("base", base), field_spec, 3, Ruleset.of("amigo"), seed, elo1
    )
    classes = {spec.name: load_bot_class(spec.target) for spec in (config.new, config.base, *config.field)}
    baseline_test = Sprt(0.5, score_of_elo(elo1), config.alpha, config.beta).running()
    games: list[FinishedGame] = []
    paired = baseline = earlier = Verdict.UNDECIDED
    paired_games = baseline_games = earlier_games = 0

    def undecided() -> bool:
        baseline_open = with_baseline and baseline is Verdict.UNDECIDED
        return paired is Verdict.UNDECIDED or earlier is Verdict.UNDECIDED or baseline_open

    set_id = 0
    while len(games) < cap and undecided():
        played = [play_direct(game, config.ruleset, classes) for game in config.games_of(set_id)]
        games += played
        set_id += 1
        figures = set_figures(config, games)
        status = status_after(config, figures, set_id)
        if paired is Verdict.UNDECIDED:
            paired, paired_games = status.verdict, status.games
        if earlier is Verdict.UNDECIDED:
            earlier, earlier_games = Sprt(0.0, status.margin).verdict(figures.differences), status.games
        for score in head_to_head(played, "new", "base"):
            if with_baseline and baseline is Verdict.UNDECIDED:
                baseline_test.add(score)
                baseline, baseline_games = baseline_test.verdict(), baseline_test.n
    return RunResult(paired, paired_games, baseline, baseline_games, earlier, earlier_games)


@dataclass(frozen=True)
class SprtBench:
    runs: int
    cap: int
    elo1: float
    better: list[RunResult]
    """NEW the heuristic bot, BASE the same bot with 10% random moves."""
    equal: list[RunResult]
    """NEW and BASE both the sloppy bot."""

    @staticmethod
    def _mean(values: list[int]) -> float:
        return sum(values) / len(values) if values else float("nan")

    def figures(self) -> dict[str, object]:
        return {
            "runs": self.runs,
            "cap": self.cap,
            "elo1": self.elo1,
            "paired_h1_share": _share(self.better, lambda r: r.paired),
            "paired_mean_games": self._mean([r.paired_games for r in self.better]),
            "baseline_h1_share": _share(self.better, lambda r: r.baseline),
            "baseline_mean_games": self._mean([r.baseline_games for r in self.better]),
            "earlier_h1_share": _share(self.better, lambda r: r.earlier),
            "earlier_mean_games": self._mean([r.earlier_games for r in self.better]),
            "paired_false_h1_share": _share(self.equal, lambda r: r.paired),
            "paired_equal_mean_games": self._mean([r.paired_games for r in self.equal]),
            "earlier_false_h1_share": _share(self.equal, lambda r: r.earlier),
            "earlier_equal_mean_games": self._mean([r.earlier_games for r in self.equal]),
        }


def _share(results: list[RunResult], verdict: Callable[[RunResult], Verdict]) -> float:
    return sum(verdict(r) is Verdict.H1 for r in results) / len(results) if results else float("nan")


def measure(runs: int, equal_runs: int, cap: int, elo1: float = DEFAULT_ELO1) -> SprtBench:
    """``runs`` runs heuristic against sloppy heuristic, ``equal_runs`` sloppy against itself."""
    better = [one_run(HEURISTIC, SLOPPY, GREEDY, seed, cap, elo1) for seed in range(runs)]
    equal = [one_run(SLOPPY, SLOPPY, GREEDY, 10_000 + seed, cap, elo1, False) for seed in range(equal_runs)]
    return SprtBench(runs, cap, elo1, better, equal)


@dataclass(frozen=True)
class SetPool:
    """Set differences of one pair (points a game per set) and one game's deviation, to resample."""

    differences: tuple[float, ...]
    game_deviation: float

    def to_json(self) -> dict[str, object]:
        return {"differences": list(self.differences), "game_deviation": self.game_deviation}

    @staticmethod
    def from_json(data: Mapping[str, object]) -> SetPool:
        differences, deviation = data["differences"], data["game_deviation"]
        assert isinstance(differences, list) and isinstance(deviation, float)
        return SetPool(tuple(float(x) for x in differences), deviation)

    def margin(self, elo1: float = DEFAULT_ELO1) -> float:
        """``elo1`` in points a game, as rage test turns it for this pair."""
        return points_for_elo(elo1, self.game_deviation)


def set_pool(new: type[Bot], base: type[Bot], sets: int, seed: int) -> SetPool:
    """``sets`` duplicate sets of ``new`` against ``base`` with the greedy bot, 3 players, amigo, public deals from
    ``seed``; one game's deviation as rage test reckons it."""
    config = TrialConfig(  # the names' targets are not loaded: the games are played by the classes given
        BotSpec.of("new", HEURISTIC), BotSpec.of("base", HEURISTIC), (BotSpec.of("field", GREEDY),), 3,
        Ruleset.of("amigo"), seed,
    )  # fmt: skip
    classes = {"new": new, "base": base, "field": load_bot_class(GREEDY)}
    games = [play_direct(game, config.ruleset, classes) for set_id in range(sets) for game in config.games_of(set_id)]
    figures = set_figures(config, games)
    return SetPool(tuple(figures.differences), status_after(config, figures, sets).sigma)


def rare_slip_bot(slip: float) -> type[Bot]:
    """The heuristic bot taking a random legal move in a share ``slip`` of its decisions."""
    sloppy = load_bot_class(SLOPPY)
    return type("RareSlipHeuristicBot", (sloppy,), {"slip": slip})


Draw = Callable[[random.Random], float]


@dataclass(frozen=True)
class Scenario:
    """Set differences drawn by ``draw``, tested against ``margin``; ``null``: their mean is 0 (any H1 is false)."""

    name: str
    draw: Draw
    margin: float
    null: bool


def zero_inflated(mean: float, zeros: float = 0.83, spread: float = 5.4) -> Draw:
    """0 in a share ``zeros`` of sets, else normal with deviation ``spread``: mean ``mean`` in all."""
    return lambda rng: 0.0 if rng.random() < zeros else rng.gauss(mean / (1 - zeros), spread)


def resampled(values: Sequence[float], shift: float = 0.0) -> Draw:
    return lambda rng: rng.choice(values) + shift


SPREAD = 2.3
"""Synthetic sets spread 2.3 margins, as the real pair's do (heuristic against its 10% sloppy self, 25 Elo)."""
LEFT_TAILED_LOGNORMAL = (math.exp(0.5), math.sqrt((math.e - 1) * math.e))
"""The mean and deviation of a lognormal of parameters 0 and 1."""


def scenarios(pair: SetPool | None = None) -> list[Scenario]:
    """Synthetic set differences at margin 1, and with ``pair`` its sets resampled (as they are, and centred)."""
    mean, deviation = LEFT_TAILED_LOGNORMAL
    chosen = [
        Scenario("NEW = BASE, normal", lambda rng: rng.gauss(0.0, SPREAD), 1.0, True),
        Scenario("zero-inflated null (83% zeros)", zero_inflated(0.0), 1.0, True),
        Scenario("skewed null (long left tail)", lambda rng: SPREAD * (1 - rng.expovariate(1.0)), 1.0, True),
        Scenario(
            "skewed null (lognormal left tail)",
            lambda rng: SPREAD * (mean - rng.lognormvariate(0.0, 1.0)) / deviation,
            1.0,
            True,
        ),
        Scenario("at the margin, normal", lambda rng: rng.gauss(1.0, SPREAD), 1.0, False),
        Scenario("zero-inflated at the margin", zero_inflated(1.0), 1.0, False),
    ]
    if pair is not None:
        centre = math.fsum(pair.differences) / len(pair.differences)
        elo = points_for_elo(DEFAULT_ELO1, pair.game_deviation)
        chosen += [
            Scenario("real pair resampled, centred (null)", resampled(pair.differences, -centre), elo, True),
            Scenario("real pair resampled, 25 Elo margin", resampled(pair.differences), elo, False),
        ]
    return chosen


@dataclass(frozen=True)
class Rates:
    """Of ``runs`` runs of one test: the share that accepted H1 and H0, and the mean figures (sets) taken."""

    runs: int
    h1: float
    h0: float
    mean_figures: float


@dataclass(frozen=True)
class Comparison:
    scenario: Scenario
    anytime: Rates
    """rage test's test (:class:`AnytimeTest`)."""
    earlier: Rates
    """The GSPRT under a normal model it used before (:class:`Sprt`)."""


def compare(scenario: Scenario, runs: int, seed: int, cap: int = 3000) -> Comparison:
    """Both tests on the same ``runs`` streams of ``scenario`` (at most ``cap`` figures each), alpha = beta = 5%."""
    rng = random.Random(seed)
    tallies: dict[str, list[tuple[Verdict, int]]] = {"anytime": [], "earlier": []}
    for _ in range(runs):
        anytime, earlier = AnytimeTest(scenario.margin).running(), Sprt(0.0, scenario.margin).running()
        found: dict[str, tuple[Verdict, int]] = {}
        while len(found) < 2 and anytime.n < cap:
            x = scenario.draw(rng)
            anytime.add(x)
            earlier.add(x)
            for name, verdict in (("anytime", anytime.reading().verdict), ("earlier", earlier.verdict())):
                if name not in found and verdict is not Verdict.UNDECIDED:
                    found[name] = (verdict, anytime.n)
        for name in tallies:
            tallies[name].append(found.get(name, (Verdict.UNDECIDED, anytime.n)))

    def rates(results: list[tuple[Verdict, int]]) -> Rates:
        shares = [sum(v is verdict for v, _ in results) / runs for verdict in (Verdict.H1, Verdict.H0)]
        return Rates(runs, shares[0], shares[1], sum(n for _, n in results) / runs)

    return Comparison(scenario, rates(tallies["anytime"]), rates(tallies["earlier"]))


@dataclass(frozen=True)
class VerdictSpeed:
    """The time a verdict after each figure of a stream of ``figures`` took, on average, for each test."""

    figures: int
    anytime_us: float
    """:class:`AnytimeTest`, running sums."""
    running_us: float
    """The earlier GSPRT, :meth:`Sprt.running`: running sums, one figure added per verdict."""
    resummed_us: float
    """The baseline: :meth:`Sprt.verdict` on the stream so far, every figure summed again."""


def verdict_speed(figures: int, seed: int = 1) -> VerdictSpeed:
    """A verdict after each of ``figures`` undecided figures (normal noise about a mean between H0 and H1)."""
    rng = random.Random(seed)
    stream = [rng.gauss(0.5, 40.0) for _ in range(figures)]
    test = Sprt(0.0, 1.0)
    start = time.perf_counter()
    anytime = AnytimeTest(1.0).running()
    for x in stream:
        anytime.add(x)
        anytime.reading()
    begin = time.perf_counter()
    run = test.running()
    running = []
    for x in stream:
        run.add(x)
        running.append(run.verdict())
    middle = time.perf_counter()
    resummed = [test.verdict(stream[:n]) for n in range(1, figures + 1)]
    end = time.perf_counter()
    assert running == resummed, "the running test and the resummed formula disagree"
    return VerdictSpeed(
        figures,
        (begin - start) / figures * 1e6,
        (middle - begin) / figures * 1e6,
        (end - middle) / figures * 1e6,
    )
