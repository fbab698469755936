"""``rage bench test``: how many games ``rage test`` needs, beside a head-to-head win/draw/loss SPRT.

Each run plays the duplicate sets of :mod:`.trial` (new seed per run) between in-process bots,
straight on the engine (no referee: the statistics do not depend on the transport, and the runs
go six times faster). On the same stream of games two tests run side by side: ``rage test``'s
sequential test on the per-set score differences, and the baseline, the same kind of SPRT on each
game's head-to-head result (NEW finished above BASE: 1, level: 1/2, below: 0) with H1 at the same
Elo margin. A run goes on until both decided or ``cap`` games.

``rage bench sprt``: the time a verdict takes as a long stream comes in, by running sums against the
baseline of summing every figure again (:func:`verdict_speed`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rage_sdk import CHANCE, GameState, Ruleset, view_for
from rage_sdk.actions import Bid
from rage_sdk.bot import Bot
from rage_sdk.events import GameInfo

from .finished import FinishedGame, figures_played
from .league.schedule import ScheduledGame
from .seats import BotSpec, load_bot_class
from .sprt import Sprt, Verdict, score_of_elo
from .trial import DEFAULT_ELO1, TrialConfig, set_figures, status_after

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
HEURISTIC = f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot"
SLOPPY = f"{EXAMPLES / 'heuristic_bot.py'}:SloppyHeuristicBot"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"


def play_direct(game: ScheduledGame, ruleset: Ruleset, classes: Mapping[str, type[Bot]]) -> FinishedGame:
    """One game on the engine, each seat's bot a fresh instance asked with :func:`view_for`."""
    state = GameState(ruleset, len(game.seats))
    bots = [classes[name]() for name in game.seats]
    for seat, bot in enumerate(bots):
        bot.on_game_start(GameInfo(game.index, seat, game.seats, ruleset, 1, 1000, 1000))
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.deal_seeded(game.seed)
            continue
        view = view_for(state, seat)
        bot = bots[seat]
        state.apply(Bid(bot.bid(view)) if isinstance(view.legal_actions[0], Bid) else bot.play(view))
    return FinishedGame(game.index, game.set_id, game.seed, figures_played(game.seats, state))


@dataclass(frozen=True)
class RunResult:
    paired: Verdict
    paired_games: int
    baseline: Verdict
    baseline_games: int


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
    paired = baseline = Verdict.UNDECIDED
    paired_games = baseline_games = 0
    set_id = 0
    while len(games) < cap and (paired is Verdict.UNDECIDED or (with_baseline and baseline is Verdict.UNDECIDED)):
        played = [play_direct(game, config.ruleset, classes) for game in config.games_of(set_id)]
        games += played
        set_id += 1
        if paired is Verdict.UNDECIDED:
            status = status_after(config, set_figures(config, games), set_id)
            paired, paired_games = status.verdict, status.games
        for score in head_to_head(played, "new", "base"):
            if with_baseline and baseline is Verdict.UNDECIDED:
                baseline_test.add(score)
                baseline, baseline_games = baseline_test.verdict(), baseline_test.n
    return RunResult(paired, paired_games, baseline, baseline_games)


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
        def share(results: list[RunResult], paired: bool) -> float:
            verdicts = [r.paired if paired else r.baseline for r in results]
            return sum(v is Verdict.H1 for v in verdicts) / len(verdicts) if verdicts else float("nan")

        return {
            "runs": self.runs,
            "cap": self.cap,
            "elo1": self.elo1,
            "paired_h1_share": share(self.better, True),
            "paired_mean_games": self._mean([r.paired_games for r in self.better]),
            "baseline_h1_share": share(self.better, False),
            "baseline_mean_games": self._mean([r.baseline_games for r in self.better]),
            "paired_false_h1_share": share(self.equal, True),
            "paired_equal_mean_games": self._mean([r.paired_games for r in self.equal]),
        }


def measure(runs: int, equal_runs: int, cap: int, elo1: float = DEFAULT_ELO1) -> SprtBench:
    """``runs`` runs heuristic against sloppy heuristic, ``equal_runs`` sloppy against itself."""
    better = [one_run(HEURISTIC, SLOPPY, GREEDY, seed, cap, elo1) for seed in range(runs)]
    equal = [one_run(SLOPPY, SLOPPY, GREEDY, 10_000 + seed, cap, elo1, False) for seed in range(equal_runs)]
    return SprtBench(runs, cap, elo1, better, equal)


@dataclass(frozen=True)
class VerdictSpeed:
    """The time a verdict after each figure of a stream of ``figures`` took, on average, tested both ways."""

    figures: int
    running_us: float
    """:meth:`Sprt.running`: running sums, one figure added per verdict."""
    resummed_us: float
    """The baseline: :meth:`Sprt.verdict` on the stream so far, every figure summed again."""


def verdict_speed(figures: int, seed: int = 1) -> VerdictSpeed:
    """A verdict after each of ``figures`` undecided figures (normal noise about a mean between H0 and H1)."""
    rng = random.Random(seed)
    stream = [rng.gauss(0.5, 40.0) for _ in range(figures)]
    test = Sprt(0.0, 1.0)
    start = time.perf_counter()
    run = test.running()
    running = []
    for x in stream:
        run.add(x)
        running.append(run.verdict())
    middle = time.perf_counter()
    resummed = [test.verdict(stream[:n]) for n in range(1, figures + 1)]
    end = time.perf_counter()
    assert running == resummed, "the running test and the resummed formula disagree"
    return VerdictSpeed(figures, (middle - start) / figures * 1e6, (end - middle) / figures * 1e6)
