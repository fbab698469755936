"""The likelihood of superiority (LOS) of a difference measured over a few independent units (duplicate sets).

LOS is the chance, on a flat prior, that the true difference is above zero: with the mean of ``n`` units and
its standard error, Student's t with ``n - 1`` degrees of freedom. It is capped by what ``n`` units can show
at all (:func:`most_sure`): from 2 sets even a t ratio that the spread makes huge gives at most 0.875, so no
LOS of 1 comes from a few sets whose figures happen to agree.
"""

from __future__ import annotations

import math

FEW_SETS = 5
"""Below this many duplicate sets a table says how little they show."""


def few_sets_note(sets: int) -> str | None:
    """The note under a table of fewer than :data:`FEW_SETS` duplicate sets (or games without them)."""
    if not 0 < sets < FEW_SETS:
        return None
    most = "one gives no LOS" if sets < 2 else f"{sets} give an LOS of at most {most_sure(sets) * 100:g}%"
    return (
        f"only {sets} duplicate set{'s' if sets != 1 else ''} (or games, without duplicates): intervals are wide, "
        f"and {most}; more sets show more"
    )


def shown(los: float, units: int) -> float | None:
    """``los`` as a table, a page or a file gives it: none from fewer than two units, which cannot tell it (one
    gives one half, whatever it showed)."""
    return los if units >= 2 else None


def most_sure(units: int) -> float:
    """The highest LOS ``units`` sets can give, ``1 - 2^-(units + 1)`` (0.875 at 2 sets, 0.984 at 5, 0.9995 at 10).

    With a uniform prior on the share of sets a bot wins, it is the chance that the bot wins more than half of
    them after it won every one of ``units``: the most their signs alone say, whatever the figures' spread.
    """
    return 1 - 0.5 ** (units + 1)


def los(mean: float, error: float, units: int) -> float:
    """LOS of a difference ``mean`` with standard ``error`` over ``units`` sets: Student's t, capped both ways by
    :func:`most_sure`; one half without two units, or for a mean of zero; without spread, the cap alone."""
    from scipy import stats  # imported when first needed: the CLI shows the note above without it

    if units < 2 or mean == 0:
        return 0.5
    cap = most_sure(units)
    if error == 0 or not math.isfinite(error):
        sure = cap if error == 0 else 0.5
        return sure if mean > 0 else 1 - sure
    chance = float(stats.t.cdf(mean / error, units - 1))
    return min(max(chance, 1 - cap), cap)
