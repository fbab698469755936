"""A ladder's leaderboard, a pure function of its book (versions, sets) and its stored games.

A set counts once every one of its games is stored, in the order its last game was stored: a referee
killed and restarted reads the same games in the same order and computes the same table. A version's
status:

- ``failed``: forfeited (crashed, could not start, too many faults) in each of its last
  :data:`FAILED_AFTER` sets; it plays no more, and its bot's previous version plays in its place;
- ``retired``: not among its bot's ``active_versions`` newest versions that have not failed;
- ``placement``: active, with fewer than ``placement_sets`` sets;
- ``active``: the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..faults import FaultKind
from ..ladder.matchmaker import Candidate
from ..ladder.ratings import SetResult, VersionRating, ladder_table, leaderboard
from ..ladder.settings import LadderSettings
from ..play.finished import FinishedGame
from .ladder_book import LadderSet, LadderVersion
from .registry import ENTRY_ENTRANT, BotEntry

FAILED_AFTER = 2
"""Sets in a row a version forfeited before it counts as failed."""
PLAYING = ("placement", "active")
"""The statuses the matchmaker seats."""


@dataclass(frozen=True)
class LadderRow:
    """One version on the leaderboard."""

    version: LadderVersion
    owner: str
    rating: VersionRating
    status: str
    rank: int = 0
    """Among the versions that play (placement or active), from 1; 0 for the others."""

    @property
    def key(self) -> str:
        return self.version.key


@dataclass(frozen=True)
class LadderState:
    """The leaderboard after the sets rated so far."""

    rows: list[LadderRow]
    """The playing versions by rank, then the retired and failed ones, each group best first."""
    sets: int
    games: int

    def candidates(self, settings: LadderSettings, busy: Iterable[str] = ()) -> list[Candidate]:
        """The versions the matchmaker may seat (``busy``: bots with a set playing)."""
        playing = set(busy)
        return [
            Candidate.of(
                row.key,
                row.version.bot,
                row.owner,
                row.version.number,
                row.rating,
                settings,
                busy=row.version.bot in playing,
            )
            for row in self.rows
            if row.status in PLAYING
        ]

    def active(self) -> dict[str, LadderRow]:
        """Each bot's best playing version's row, by bot (its one active version by default)."""
        best: dict[str, LadderRow] = {}
        for row in self.rows:
            if row.status in PLAYING and row.version.bot not in best:
                best[row.version.bot] = row
        return best


def owner_of(bot: BotEntry) -> str:
    """Whom the matchmaker keeps apart: the entrant whose bot it is, or (for the organizer's bots and those
    the shared entry token entered) the owner given, or else the bot alone."""
    if bot.entrant and bot.entrant != ENTRY_ENTRANT:
        return bot.entrant
    return bot.owner or bot.name


def set_results(
    sets: Iterable[LadderSet], games: Iterable[FinishedGame], order: Mapping[int, float]
) -> list[SetResult]:
    """The ladder's whole sets, in the order their last games were stored (``order``: each stored game's
    time, by index, in the order stored), each version's points totalled over the set."""
    by_index = {game.index: game for game in games}
    position = {index: place for place, index in enumerate(order)}
    whole: list[tuple[int, SetResult]] = []
    for played in sets:
        if any(index not in by_index or index not in position for index in played.indices):
            continue
        bots = {bot: key for bot, key in zip(played.bots, played.keys)}
        points = dict.fromkeys(played.keys, 0.0)
        forfeited: set[str] = set()
        for index in played.indices:
            figures = by_index[index].figures
            for seat, bot in enumerate(figures.seats):
                points[bots[bot]] += figures.totals[seat]
            for fault in figures.faults:
                loser = figures.bot_at(fault.seat)
                if fault.kind is FaultKind.FORFEITED and loser is not None and loser in bots:
                    forfeited.add(bots[loser])
        last = max(played.indices, key=lambda index: position[index])
        result = SetResult(
            played.set_id,
            played.keys,
            tuple(points[key] for key in played.keys),
            frozenset(forfeited),
            games=played.size,
            finished=order[last],
        )
        whole.append((position[last], result))
    return [result for _, result in sorted(whole, key=lambda item: item[0])]


def predecessors(versions: Sequence[LadderVersion]) -> dict[str, str | None]:
    """Each version's previous version of its bot in the ladder (None for a bot's first)."""
    newest: dict[str, str] = {}
    before: dict[str, str | None] = {}
    for version in sorted(versions, key=lambda v: (v.bot, v.number)):
        before[version.key] = newest.get(version.bot)
        newest[version.bot] = version.key
    return before


def failed_versions(results: Sequence[SetResult]) -> set[str]:
    """The versions forfeited in each of their last :data:`FAILED_AFTER` sets."""
    recent: dict[str, list[bool]] = {}
    for result in results:
        for version in result.versions:
            recent.setdefault(version, []).append(version in result.forfeited)
    return {v for v, runs in recent.items() if len(runs) >= FAILED_AFTER and all(runs[-FAILED_AFTER:])}


def ladder_state(
    versions: Sequence[LadderVersion],
    results: Sequence[SetResult],
    owners: Mapping[str, str],
    settings: LadderSettings,
) -> LadderState:
    """The leaderboard of ``versions`` after ``results`` (in order); ``owners``: each bot's :func:`owner_of`."""
    table = ladder_table(results, predecessors(versions), (v.key for v in versions))
    failed = failed_versions(results)
    by_bot: dict[str, list[LadderVersion]] = {}
    for version in versions:
        if version.key not in failed:
            by_bot.setdefault(version.bot, []).append(version)
    active = {
        v.key
        for kept in by_bot.values()
        for v in sorted(kept, key=lambda v: v.number, reverse=True)[: settings.active_versions]
    }

    def status(version: LadderVersion) -> str:
        if version.key in failed:
            return "failed"
        if version.key not in active:
            return "retired"
        return "placement" if table[version.key].sets < settings.placement_sets else "active"

    by_key = {v.key: v for v in versions}
    order = leaderboard(table, by_key)
    playing = [key for key in order if status(by_key[key]) in PLAYING]
    resting = [key for key in order if status(by_key[key]) not in PLAYING]
    rows = [
        LadderRow(by_key[key], owners.get(by_key[key].bot, by_key[key].bot), table[key], status(by_key[key]), rank)
        for rank, key in enumerate(playing, start=1)
    ]
    rows += [
        LadderRow(by_key[key], owners.get(by_key[key].bot, by_key[key].bot), table[key], status(by_key[key]))
        for key in resting
    ]
    return LadderState(rows, len(results), sum(result.games for result in results))
