"""Text that came from a bot (its error messages, its stderr): capped and made printable before use."""

from __future__ import annotations

DETAIL_LIMIT = 500
"""The most characters of a bot's text the referee keeps in a fault or prints in one line."""


def printable(text: str, limit: int = DETAIL_LIMIT) -> str:
    """``text`` in one line of at most ``limit`` characters: control and other unprintable characters escaped.

    Escapes such as ``\\x1b`` keep a bot's text from driving the terminal it is printed on; a text
    cut short ends with ``... (N characters in all)``.
    """
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text[: limit + 1])
    if len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(text)} characters in all)"
