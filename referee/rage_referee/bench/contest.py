"""The contest benchmark: a live ladder simulated in-process, beside Kaggle-style matchmaking.

Sixteen bots of known strength (the heuristic example bot taking a random legal move with
probability ``slip``, one slip per bot), four of which submit a stronger version a third of the way
in, and two of which share an owner. Both systems play the same bots for the same number of games
and use the same rating model (:mod:`rage_referee.ladder.ratings`):

- the ladder: duplicate sets (one deal in every seating of the balanced design) at tables the ladder's
  matchmaker picks, ratings updated once per set;
- the baseline: single games of random deals, each at a table of a bot drawn at random and its nearest
  neighbours in rating, ratings updated once per game.

Games are played as in :mod:`rage_referee.bench.ladder` (no gRPC, each bot asked directly). After every
``step`` games each system's leaderboard (the conservative rating of each bot's active version) is set
against the true order (its active version's slip) with Kendall's tau.
"""

from __future__ import annotations

import itertools
import random
import statistics
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from rage_sdk.bot import Bot
from rage_sdk.examples.heuristic_bot import SloppyHeuristicBot
from rage_sdk.rules import Ruleset
from scipy.stats import kendalltau

from ..ladder.matchmaker import Candidate, pick_table
from ..ladder.ratings import SetResult, VersionRating, add_set, starting_rating
from ..ladder.settings import LadderSettings
from ..league.schedule import duplicate_set
from .ladder import play_game

BOTS = 16
SLIP_STEP = 0.06
"""Bot ``i`` slips with probability ``i * SLIP_STEP``: bot 0 is the heuristic bot itself."""
RESUBMITTING = (6, 9, 12, 15)
"""The bots that submit a second version."""
BETTER_BY = 0.21
"""How much less the second version slips: 3.5 steps, so no two active versions are level."""
SHARED_OWNER = (3, 4)
"""Two bots of one owner."""
TOP = 8
TARGET_TAU = 0.9
SETTLED_WITHIN = 1
"""A version's rank has settled once it stays within this many places of its true rank."""


@dataclass(frozen=True)
class Entrant:
    """A version of a simulated bot: who it is, how often it slips, and when it is submitted."""

    bot: str
    owner: str
    number: int
    slip: float
    joins: int
    """Games played in the contest when it is submitted."""

    @property
    def version(self) -> str:
        return f"{self.bot}@{self.number}"


def entrants(games: int) -> list[Entrant]:
    """The contest's versions: one per bot at the start, a stronger one of each resubmitting bot at a third."""
    names = [f"b{i:02d}" for i in range(BOTS)]
    owners = {names[i]: "shared" for i in SHARED_OWNER}
    first = [Entrant(name, owners.get(name, name), 1, i * SLIP_STEP, 0) for i, name in enumerate(names)]
    second = [
        Entrant(names[i], owners.get(names[i], names[i]), 2, round(i * SLIP_STEP - BETTER_BY, 6), games // 3)
        for i in RESUBMITTING
    ]
    return first + second


def sloppy(slip: float) -> Bot:
    """The heuristic example bot taking a random legal move with probability ``slip``."""
    bot = SloppyHeuristicBot()
    bot.slip = slip
    return bot


@dataclass
class Contest:
    """One system's contest as it runs: its versions, ratings and what it has measured."""

    entrants: list[Entrant]
    step: int
    games: int = 0
    table: dict[str, VersionRating] = field(default_factory=dict)
    curve: list[tuple[int, float, float]] = field(default_factory=list)
    """(games, tau of all bots, tau of the true top 8) after every ``step`` games."""
    ranks: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    """Per second version: (games, leaderboard rank, true rank) at every point of the curve."""
    owner_clashes: int = 0

    def submitted(self) -> list[Entrant]:
        """The versions submitted by now."""
        return [e for e in self.entrants if e.joins <= self.games]

    def active(self) -> dict[str, Entrant]:
        """Each bot's newest submitted version."""
        newest: dict[str, Entrant] = {}
        for entrant in self.submitted():
            if entrant.bot not in newest or entrant.number > newest[entrant.bot].number:
                newest[entrant.bot] = entrant
        return newest

    def predecessors(self) -> dict[str, str | None]:
        """Each version's previous version of its bot."""
        return {e.version: f"{e.bot}@{e.number - 1}" if e.number > 1 else None for e in self.entrants}

    def rating(self, version: str) -> VersionRating:
        """A version's rating now (its starting rating before its first set)."""
        return self.table.get(version) or starting_rating(version, self.table, self.predecessors())

    def record(self, result: SetResult, owners: Sequence[str]) -> None:
        """Rate a set (or single game) and measure at every ``step`` games passed."""
        self.owner_clashes += len(set(owners)) < len(owners)
        add_set(self.table, result, self.predecessors())
        before, self.games = self.games, self.games + result.games
        if self.games // self.step > before // self.step:
            self.measure()

    def measure(self) -> None:
        """A point of the curve, at the games played so far."""
        games, active = self.games, self.active()
        bots = sorted(active, key=lambda bot: active[bot].slip)  # the true order, strongest first
        shown = [self.rating(active[bot].version).conservative for bot in bots]
        truth = [-active[bot].slip for bot in bots]
        self.curve.append((games, tau(truth, shown), tau(truth[:TOP], shown[:TOP])))
        board = sorted(bots, key=lambda bot: -self.rating(active[bot].version).conservative)
        for bot, entrant in active.items():
            if entrant.number > 1:
                self.ranks.setdefault(entrant.version, []).append((games, board.index(bot) + 1, bots.index(bot) + 1))

    def figures(self) -> dict[str, Any]:
        """What the benchmark prints for this system."""
        played: dict[str, int] = {}
        for version, rating in self.table.items():
            bot = version.split("@")[0]
            played[bot] = played.get(bot, 0) + rating.games
        per_bot = sorted(played.get(bot, 0) for bot in self.active())
        joins = {e.version: e.joins for e in self.entrants}
        return {
            "games": self.games,
            "games_to_tau": games_to_tau(self.curve),
            "tau_all": self.curve[-1][1] if self.curve else None,
            "tau_top8": self.curve[-1][2] if self.curve else None,
            "settled_after": {v: settled_after(points, joins[v]) for v, points in sorted(self.ranks.items())},
            "games_per_bot": {"min": per_bot[0], "median": statistics.median(per_bot), "max": per_bot[-1]},
            "owner_clashes": self.owner_clashes,
            "curve": [[games, round(everyone, 4), round(top, 4)] for games, everyone, top in self.curve],
        }


def tau(truth: Sequence[float], shown: Sequence[float]) -> float:
    """Kendall's tau of ``shown`` against ``truth`` (0 while the leaderboard is all level)."""
    if len(set(shown)) < 2:
        return 0.0
    return float(kendalltau(truth, shown).statistic)


def games_to_tau(curve: Sequence[tuple[int, float, float]]) -> int | None:
    """The games after which the top 8's tau stayed at or above the target to the end; None if it ends below."""
    reached = None
    for games, _, top in curve:
        if top < TARGET_TAU:
            reached = None
        elif reached is None:
            reached = games
    return reached


def settled_after(points: Sequence[tuple[int, int, int]], joins: int) -> int | None:
    """Games from a version's submission until its rank stayed within 1 of its true rank to the end."""
    settled = None
    for games, shown, true in points:
        if abs(shown - true) > SETTLED_WITHIN:
            settled = None
        elif settled is None:
            settled = games - joins
    return settled


def candidates(contest: Contest, settings: LadderSettings) -> list[Candidate]:
    """Every submitted version as the ladder's matchmaker sees it (no set is ever in flight here)."""
    return [
        Candidate.of(e.version, e.bot, e.owner, e.number, contest.rating(e.version), settings)
        for e in contest.submitted()
    ]


Play = Callable[[Sequence[Entrant], int, int], list[float]]
"""Plays one game: the seated versions, the deal seed and the game's number; each seat's points."""


def player(ruleset: Ruleset) -> Play:
    """Games of ``ruleset`` in-process, the seats' bots made from their versions' slips."""

    def play(seated: Sequence[Entrant], deal: int, number: int) -> list[float]:
        state = play_game(ruleset, [partial(sloppy, e.slip) for e in seated], deal, number)
        return [float(total) for total in state.outcome().totals]

    return play


def ladder_contest(games: int, players: int, seed: int, step: int, play: Play) -> Contest:
    """Duplicate sets at the ladder matchmaker's tables until ``games`` are played."""
    settings = LadderSettings()
    contest, rng = Contest(entrants(games), step), random.Random(seed)
    by_version = {e.version: e for e in contest.entrants}
    for set_id in itertools.count():
        if contest.games >= games:
            break
        table = pick_table(candidates(contest, settings), players, settings, rng)
        if table is None:
            raise RuntimeError("the contest's bots make no legal table")
        deal, points = rng.getrandbits(32), dict.fromkeys(table, 0.0)
        scheduled = duplicate_set(table, deal, set_id, contest.games)
        for game in scheduled:
            for version, total in zip(game.seats, play([by_version[v] for v in game.seats], deal, game.index)):
                points[version] += total
        owners = [by_version[v].owner for v in table]
        contest.record(SetResult(set_id, table, tuple(points[v] for v in table), games=len(scheduled)), owners)
    return contest


def neighbours(contest: Contest, players: int, rng: random.Random) -> list[Entrant]:
    """A bot drawn at random and the ``players - 1`` nearest it in rating, owners apart (Kaggle-style)."""
    active = list(contest.active().values())
    first = rng.choice(active)
    rating = contest.rating(first.version).conservative
    table = [first]
    for other in sorted(active, key=lambda e: (abs(contest.rating(e.version).conservative - rating), e.bot)):
        if len(table) < players and all(other.owner != e.owner for e in table):
            table.append(other)
    return table


def baseline_contest(games: int, players: int, seed: int, step: int, play: Play) -> Contest:
    """Single games of random deals at tables of rating neighbours until ``games`` are played."""
    contest, rng = Contest(entrants(games), step), random.Random(seed)
    while contest.games < games:
        table = neighbours(contest, players, rng)
        rng.shuffle(table)
        totals = play(table, rng.getrandbits(32), contest.games)
        versions = tuple(e.version for e in table)
        contest.record(SetResult(contest.games, versions, tuple(totals), games=1), [e.owner for e in table])
    return contest


def measure(
    games: int, players: int, seed: int, step: int, ruleset: Ruleset, progress: Callable[[str], None]
) -> dict[str, Any]:
    """Both systems over the same bots and ``games``: the figures of each."""
    play = player(ruleset)
    ladder = ladder_contest(games, players, seed, step, play)
    progress(f"ladder: {ladder.games} games, top 8 tau {ladder.curve[-1][2]:.3f}")
    baseline = baseline_contest(games, players, seed, step, play)
    progress(f"baseline: {baseline.games} games, top 8 tau {baseline.curve[-1][2]:.3f}")
    if ladder.owner_clashes:
        raise RuntimeError(f"the ladder seated two bots of one owner at {ladder.owner_clashes} tables")
    return {"ladder": ladder.figures(), "baseline": baseline.figures()}


def curve_points(figures: dict[str, Any]) -> Iterator[tuple[int, float, float]]:
    """(games, ladder's top 8 tau, baseline's top 8 tau) at each point both measured."""
    baseline = {games: top for games, _, top in figures["baseline"]["curve"]}
    for games, _, top in figures["ladder"]["curve"]:
        if games in baseline:
            yield games, top, baseline[games]
