"""Text that came from a bot, made safe to print and store: capped, control characters escaped.

A bot chooses its error texts, its name and what it writes to stderr. Before any of it reaches a
record, a log, an event stream or the organizer's terminal it goes through :func:`bot_text`:
newlines, ANSI escapes and every other character Python does not call printable (control and
format characters, bidirectional overrides, line separators, unassigned code points) are written
as Python escapes (``\\n``, ``\\x1b``, ``\\u202e``), and the result is cut
at :data:`BOT_TEXT_LIMIT` characters with a note of how much was left out.

A player's or bot's name, which a league file, a ``--bot`` option, a record or a bot gives, is shown by
:func:`name_text` in every table, line and page: escaped the same way, and shorter
(:data:`NAME_LIMIT`), a cut name ending in ``…``; :func:`one_line` does the same for any short text.

A figure there is none of (NaN: the rating or means of a bot rated on no game) is shown by :func:`figure`, in
every table, line and page alike, as :data:`NO_FIGURE`; a count with its noun by :func:`plural` (``1 fault``,
``2 faults``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable

BOT_TEXT_LIMIT = 300
"""Characters of a bot's text kept, escapes counted (the note of what was cut comes on top)."""
NAME_LIMIT = 60
"""Characters of a name a table or line shows, escapes and the ``…`` of a cut one counted."""
NO_FIGURE = "-"
"""A figure there is none of, as tables, lines and pages show it."""


def _shown(char: str) -> str:
    if char.isprintable():
        return char
    return char.encode("unicode_escape", "backslashreplace").decode("ascii")


def bot_text(text: str, limit: int = BOT_TEXT_LIMIT) -> str:
    """``text`` with control characters escaped, cut to ``limit`` characters with a note of the rest."""
    out: list[str] = []
    length = 0
    for used, char in enumerate(text):
        shown = _shown(char)
        if length + len(shown) > limit:
            return "".join(out) + f"… ({len(text) - used:,} more characters cut)"
        out.append(shown)
        length += len(shown)
    return "".join(out)


def one_line(text: str, limit: int) -> str:
    """``text`` with control characters escaped, cut to at most ``limit`` characters, the last ``…`` if cut."""
    out: list[str] = []
    length = 0
    for char in text:
        shown = _shown(char)
        if length + len(shown) > limit:
            while out and length > limit - 1:  # room for the ellipsis
                length -= len(out.pop())
            return "".join(out) + "…"
        out.append(shown)
        length += len(shown)
    return "".join(out)


def chance(value: float, decimals: int = 0) -> str:
    """A likelihood (LOS) in percent to ``decimals`` places, rounded down, so it never looks surer than it is: 0.875,
    the most two sets can show, is 87%, not 88%; 0.9995 is 99%, not 100% (99.9% to one place)."""
    scale = 10**decimals
    return f"{math.floor(round(value * 100 * scale, 6)) / scale:.{decimals}f}%"  # round: no 0.29 read as 28.9


def los_text(value: float | None, decimals: int = 1) -> str:
    """A LOS as a line or cell shows it (:func:`~rage_referee.league.superiority.shown`): :func:`chance`, or ``-``
    for none."""
    return "-" if value is None else chance(value, decimals)


def plural(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural but for one: ``1 fault``, ``2,000 faults``."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def name_text(name: str, limit: int = NAME_LIMIT) -> str:
    """A player's or bot's name as every table, line and page shows it: :func:`one_line` at :data:`NAME_LIMIT`."""
    return one_line(name, limit)


def names_alike(names: Iterable[str]) -> str | None:
    """Why bots of ``names`` could not be told apart in a table, line or page: a name given twice, or two
    that :func:`name_text` shows alike (they differ past its first :data:`NAME_LIMIT` characters); ``None``
    when every one is shown apart."""
    shown: dict[str, str] = {}
    for name in names:
        key = name_text(name)
        if key not in shown:
            shown[key] = name
        elif shown[key] == name:
            return f"names must differ ({key} is given twice)"
        else:
            return f"names must differ within the first {NAME_LIMIT} characters, as they are shown ({key} twice)"
    return None


def figure(value: float, spec: str) -> str:
    """``value`` formatted by ``spec``, or :data:`NO_FIGURE` where there is none (NaN)."""
    return NO_FIGURE if math.isnan(value) else format(value, spec)
