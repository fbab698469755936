"""The ladder's matchmaker: which versions play the next duplicate set.

The first seat goes to the version that most needs a set: versions in placement first, then the
fewest games, then the longest idle (never played before any), ties drawn at random. Its opponents
are drawn at random among the free versions within ``window`` of its conservative rating, the window
widening by ``window_growth`` while too few are within it to fill the table. A table never holds two
versions of one bot, nor two bots of one owner when ``owners_apart``; a busy version (its set still
playing) is never picked, so a slow bot holds up only its own sets; and only each bot's
``active_versions`` newest versions play. With no legal table (too few free bots or owners) the
matchmaker says None, and the caller asks again when a set ends or a version joins.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from .ratings import VersionRating
from .settings import LadderSettings


@dataclass(frozen=True)
class Candidate:
    """A built version that may be seated, as the matchmaker sees it."""

    version: str
    """The version's id."""
    bot: str
    owner: str
    number: int
    """Its place among its bot's versions: a higher number is newer."""
    rating: float
    """Its conservative rating (mu - 3 sigma)."""
    sets: int = 0
    games: int = 0
    last_played: float | None = None
    """When its last set finished (seconds since the epoch); None before its first."""
    placement: bool = True
    """Still in placement (fewer than ``placement_sets`` sets)."""
    busy: bool = False
    """A set of it is still playing."""

    @classmethod
    def of(
        cls,
        version: str,
        bot: str,
        owner: str,
        number: int,
        rating: VersionRating,
        settings: LadderSettings,
        busy: bool = False,
    ) -> Candidate:
        """A version with its rating: in placement while it has played fewer than ``placement_sets`` sets."""
        return cls(
            version,
            bot,
            owner,
            number,
            rating.conservative,
            rating.sets,
            rating.games,
            rating.last_played,
            placement=rating.sets < settings.placement_sets,
            busy=busy,
        )


def active(candidates: Iterable[Candidate], settings: LadderSettings) -> list[Candidate]:
    """The candidates among each bot's ``active_versions`` newest versions."""
    every = list(candidates)
    by_bot: dict[str, list[Candidate]] = {}
    for candidate in every:
        by_bot.setdefault(candidate.bot, []).append(candidate)
    newest = {
        c.version
        for versions in by_bot.values()
        for c in sorted(versions, key=lambda c: c.number, reverse=True)[: settings.active_versions]
    }
    return [c for c in every if c.version in newest]


def neediest_first(candidates: Sequence[Candidate], rng: random.Random) -> list[Candidate]:
    """Placement first, then the fewest games, then the longest idle; ties in a random order."""
    shuffled = rng.sample(list(candidates), len(candidates))
    return sorted(
        shuffled,
        key=lambda c: (not c.placement, c.games, -math.inf if c.last_played is None else c.last_played),
    )


def _apart(seated: Sequence[Candidate], other: Candidate, owners_apart: bool) -> bool:
    return all(other.bot != c.bot and not (owners_apart and other.owner == c.owner) for c in seated)


def opponents(
    first: Candidate, pool: Sequence[Candidate], players: int, settings: LadderSettings, rng: random.Random
) -> list[Candidate] | None:
    """``players - 1`` opponents of ``first`` from ``pool``, near it in rating; None if there are too few."""
    others = [c for c in pool if _apart([first], c, settings.owners_apart)]
    widest = max((abs(c.rating - first.rating) for c in others), default=0.0)
    window = settings.window
    while True:
        near = [c for c in others if abs(c.rating - first.rating) <= window]
        seated = [first]
        for other in rng.sample(near, len(near)):
            if len(seated) < players and _apart(seated, other, settings.owners_apart):
                seated.append(other)
        if len(seated) == players:
            return seated[1:]
        if window >= widest:
            return None
        window *= settings.window_growth


def pick_table(
    candidates: Iterable[Candidate], players: int, settings: LadderSettings, rng: random.Random
) -> tuple[str, ...] | None:
    """The version ids of the next table, the neediest first; None when no legal table exists."""
    free = [c for c in active(candidates, settings) if not c.busy]
    for first in neediest_first(free, rng):
        table = opponents(first, free, players, settings, rng)
        if table is not None:
            return (first.version, *(c.version for c in table))
    return None


def pick_tables(
    candidates: Iterable[Candidate], players: int, settings: LadderSettings, rng: random.Random, count: int
) -> list[tuple[str, ...]]:
    """Up to ``count`` tables at once (the free places of ``concurrency``), no version at two."""
    pool = list(candidates)
    tables: list[tuple[str, ...]] = []
    while len(tables) < count and (table := pick_table(pool, players, settings, rng)) is not None:
        tables.append(table)
        pool = [replace(c, busy=True) if c.version in table else c for c in pool]
    return tables
