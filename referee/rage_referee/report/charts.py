"""Charts as SVG text, drawn here so a page needs no chart library and fetches nothing.

Labels are escaped (:func:`markupsafe.escape`): bot names are the league's, not ours.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from markupsafe import Markup, escape

from ..league.ratings import RatingRow
from .text import capped

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f")


def colour(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def _ticks(low: float, high: float, count: int = 5) -> list[float]:
    """Round numbers spanning ``low``..``high``."""
    span = max(high - low, 1e-9)
    step = 10 ** math.floor(math.log10(span / count))
    step *= next(m for m in (1, 2, 5, 10) if span / (step * m) <= count)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step) + 1)]


def _range(values: Sequence[float], pad: float = 0.05) -> tuple[float, float]:
    low, high = min(values), max(values)
    if high - low < 1:
        low, high = low - 10, high + 10
    margin = (high - low) * pad
    return low - margin, high + margin


def rating_bars(rows: Sequence[RatingRow], width: int = 640) -> Markup:
    """Each bot's rating as a dot on its 95% interval, best at the top; a bot rated on no game has its name alone."""
    rated = [value for row in rows for value in (row.elo, row.low, row.high) if not math.isnan(value)]
    if not rated:
        return Markup("")
    row_height, left, right, top = 24, 120, 20, 10
    height = top + row_height * len(rows) + 30
    low, high = _range(rated)

    def x(value: float) -> float:
        return left + (value - low) / (high - low) * (width - left - right)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="ratings with 95% intervals">']
    bottom = top + row_height * len(rows)
    for tick in _ticks(low, high):
        parts.append(f'<line class="grid" x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="{top}" y2="{bottom}"/>')
        parts.append(f'<text class="tick" x="{x(tick):.1f}" y="{bottom + 16}" text-anchor="middle">{tick:.0f}</text>')
    for k, row in enumerate(rows):
        y = top + row_height * k + row_height / 2
        label = escape(capped(row.name, 40))
        parts.append(f'<text class="label" x="{left - 8}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
        if math.isnan(row.elo):
            continue
        interval = f" ({row.low:.0f} to {row.high:.0f})" if row.has_interval else " (no interval: one duplicate set)"
        if row.has_interval:
            parts.append(
                f'<line class="bar" x1="{x(row.low):.1f}" x2="{x(row.high):.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                f'stroke="{colour(k)}"/>'
            )
            for end in (row.low, row.high):
                parts.append(
                    f'<line class="cap" x1="{x(end):.1f}" x2="{x(end):.1f}" y1="{y - 5:.1f}" y2="{y + 5:.1f}" '
                    f'stroke="{colour(k)}"/>'
                )
        parts.append(
            f'<circle cx="{x(row.elo):.1f}" cy="{y:.1f}" r="4" fill="{colour(k)}">'
            f"<title>{label}: {row.elo:.0f}{interval}</title></circle>"
        )
    parts.append("</svg>")
    return Markup("".join(parts))


def history_lines(
    history: Sequence[tuple[int, dict[str, float]]], order: Sequence[str], width: int = 640, height: int = 280
) -> Markup:
    """Each bot's rating against games played, one line per bot (``order`` gives the colours)."""
    if not history:
        return Markup("")
    left, right, top, bottom = 50, 130, 10, 30
    values = [elo for _, ratings in history for elo in ratings.values()]
    low, high = _range(values)
    last = max(count for count, _ in history)

    def x(count: float) -> float:
        return left + (count / last if last else 0) * (width - left - right)

    def y(value: float) -> float:
        return top + (high - value) / (high - low) * (height - top - bottom)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-label="rating history">']
    for tick in _ticks(low, high):
        parts.append(f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}"/>')
        parts.append(f'<text class="tick" x="{left - 6}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:.0f}</text>')
    for tick in _ticks(0, last):
        parts.append(
            f'<text class="tick" x="{x(tick):.1f}" y="{height - bottom + 16}" text-anchor="middle">{tick:.0f}</text>'
        )
    for k, name in enumerate(order):
        points = " ".join(f"{x(count):.1f},{y(ratings[name]):.1f}" for count, ratings in history if name in ratings)
        parts.append(
            f'<polyline class="line" points="{points}" stroke="{colour(k)}"><title>{escape(capped(name, 40))}</title>'
        )
        parts.append("</polyline>")
        parts.append(
            f'<text class="label" x="{width - right + 6}" y="{top + 14 + 16 * k}" fill="{colour(k)}">'
            f"{escape(capped(name, 40))}</text>"
        )
    parts.append(f'<text class="tick" x="{(left + width - right) / 2}" y="{height - 2}" text-anchor="middle">')
    parts.append("games</text></svg>")
    return Markup("".join(parts))
