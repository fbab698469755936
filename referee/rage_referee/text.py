"""Text that came from a bot, made safe to print and store: capped, control characters escaped.

A bot chooses its error texts, its name and what it writes to stderr. Before any of it reaches a
record, a log, an event stream or the organizer's terminal it goes through :func:`bot_text`:
newlines, ANSI escapes and every other character Python does not call printable (control and
format characters, bidirectional overrides, line separators, unassigned code points) are written
as Python escapes (``\\n``, ``\\x1b``, ``\\u202e``), and the result is cut
at :data:`BOT_TEXT_LIMIT` characters with a note of how much was left out.
"""

from __future__ import annotations

BOT_TEXT_LIMIT = 300
"""Characters of a bot's text kept, escapes counted (the note of what was cut comes on top)."""


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
