"""What the final takes from the ladder: the versions it pins and the order its standings start from.

The final itself (a duplicate round robin among the finalists that stops once every adjacent pair of
its standings is separated) is scheduled and judged as a league's is, with
:func:`rage_referee.league.separation.adjacent_separated`.
"""

from __future__ import annotations

from collections.abc import Mapping

from .ratings import VersionRating, leaderboard


def finalists(table: Mapping[str, VersionRating], active: Mapping[str, str], top: int | None = None) -> list[str]:
    """The active versions (``active``: bot to its version, each in ``table``) of the ``top`` bots of the
    leaderboard (all when None), best first.

    :raises ValueError: ``top`` below 2, or fewer than 2 bots: a final needs two.
    """
    if top is not None and top < 2:
        raise ValueError(f"top: a final needs 2 bots at least, not {top}")
    if len(active) < 2:
        raise ValueError(f"a final needs 2 bots at least; the ladder has {len(active)}")
    return leaderboard(table, active.values())[:top]
