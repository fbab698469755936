"""The ladder's ratings: an OpenSkill (Plackett-Luce) skill per version, updated once per duplicate set.

A set's result is each version's total points over the set's games (every version at the table sits in
every seating of one deal), ranked with ties. The table is a pure function of the stored sets in the
order given: a restarted referee reading the same sets recomputes it to the last bit.

A version that forfeited games of a set (crashed, timed out) is rated last of that set without dragging
its opponents: the others are rated among themselves alone, exactly as if it had not sat at the table,
and each forfeiter alone is rated as if it had played and come last below them at their places (their
ratings as they were before the set), so forfeiting never costs less than losing. A set that every
version forfeited changes no rating.

A new version starts from its predecessor's mu (as it stands when the new version plays its first set)
with sigma reset, so an improved bot climbs from where its last version stood. A version's skill does not
drift (its code is fixed), so the model has no dynamics factor: sets only ever make a rating surer.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce, PlackettLuceRating

MODEL = PlackettLuce(tau=0.0)
"""OpenSkill's defaults (mu 25, sigma 25/3) without its dynamics factor: a version's code never changes,
so its skill does not drift, and a set never makes its rating less sure. (The default tau = 25/300 adds
that much spread before every update, for players who change; measured on ``rage bench contest`` it kept
the leaderboard's close pairs swapping: the top 8 held in order from a median 5472 games at nine seeds,
3744 without it.)"""


@dataclass(frozen=True)
class SetResult:
    """One finished duplicate set of the ladder, as stored."""

    set_id: int
    versions: tuple[str, ...]
    """The version ids at the table (distinct)."""
    points: tuple[float, ...]
    """Each version's total points over the set's games, in the order of ``versions``."""
    forfeited: frozenset[str] = field(default_factory=frozenset)
    """Versions forfeited in any game of the set."""
    games: int = 1
    """Games in the set (each version played every one)."""
    finished: float = 0.0
    """When the set's last game ended (seconds since the epoch)."""

    def __post_init__(self) -> None:
        if len(self.points) != len(self.versions) or len(set(self.versions)) != len(self.versions):
            raise ValueError(f"set {self.set_id}: one total of points for each of its distinct versions")
        if not self.forfeited <= set(self.versions):
            raise ValueError(f"set {self.set_id}: a forfeited version that is not at its table")


@dataclass(frozen=True)
class VersionRating:
    """One version's rating: OpenSkill's mu and sigma, and what it has played."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    sets: int = 0
    games: int = 0
    last_played: float | None = None
    """When its last set finished (seconds since the epoch); None before its first."""

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the rating shown, and the one the leaderboard is sorted by."""
        return self.mu - 3 * self.sigma


def ranks(points: Sequence[float]) -> list[int]:
    """1 for the most points; versions with equal points share a rank."""
    return [1 + sum(other > own for other in points) for own in points]


def starting_rating(
    version: str, table: Mapping[str, VersionRating], predecessors: Mapping[str, str | None]
) -> VersionRating:
    """The rating ``version`` has before its first set: its predecessor's mu with sigma reset.

    The predecessor's mu is its rating in ``table`` or, if it never played either, its own start.
    """
    seen = {version}
    previous = predecessors.get(version)
    while previous is not None and previous not in table and previous not in seen:
        seen.add(previous)
        previous = predecessors.get(previous)
    mu = table[previous].mu if previous is not None and previous in table else MODEL.mu
    return VersionRating(mu=mu)


def _rated(teams: Sequence[VersionRating], places: Sequence[int]) -> list[tuple[float, float]]:
    """Mu and sigma of each of ``teams`` after one Plackett-Luce update at ``places``."""
    rated = MODEL.rate([[PlackettLuceRating(t.mu, t.sigma)] for t in teams], ranks=list(places))
    return [(team[0].mu, team[0].sigma) for team in rated]


def rate_set(before: Mapping[str, VersionRating], result: SetResult) -> dict[str, VersionRating]:
    """The ratings of ``result``'s versions after it, from theirs ``before`` it."""
    fair = [v for v in result.versions if v not in result.forfeited]
    after = {v: (before[v].mu, before[v].sigma) for v in result.versions}
    if len(fair) > 1:
        points = [result.points[result.versions.index(v)] for v in fair]
        after.update(zip(fair, _rated([before[v] for v in fair], ranks(points))))
    if fair:
        places = ranks([result.points[result.versions.index(v)] for v in fair])
        for loser in result.forfeited:  # last, below the others at their places, as they were before the set
            after[loser] = _rated([*(before[v] for v in fair), before[loser]], [*places, len(fair) + 1])[-1]
    return {
        v: replace(
            before[v],
            mu=after[v][0],
            sigma=after[v][1],
            sets=before[v].sets + 1,
            games=before[v].games + result.games,
            last_played=result.finished,
        )
        for v in result.versions
    }


def add_set(table: dict[str, VersionRating], result: SetResult, predecessors: Mapping[str, str | None]) -> None:
    """Rate ``result`` into ``table`` as the next set in order (a version new to it from its starting rating)."""
    before = {v: table[v] if v in table else starting_rating(v, table, predecessors) for v in result.versions}
    table.update(rate_set(before, result))


def ladder_table(
    sets: Iterable[SetResult], predecessors: Mapping[str, str | None], versions: Iterable[str] = ()
) -> dict[str, VersionRating]:
    """Every version's rating after ``sets`` in the order given.

    ``predecessors`` maps a version to the one it replaced (None for a bot's first); ``versions`` adds
    versions that played no set yet, at their starting rating.
    """
    table: dict[str, VersionRating] = {}
    for result in sets:
        add_set(table, result, predecessors)
    for version in versions:
        if version not in table:
            table[version] = starting_rating(version, table, predecessors)
    return table


def leaderboard(table: Mapping[str, VersionRating], versions: Iterable[str]) -> list[str]:
    """``versions`` (each in ``table``) best first: by conservative rating, then mu, then id, so ties sort the same
    every time."""
    return sorted(versions, key=lambda v: (-table[v].conservative, -table[v].mu, v))
