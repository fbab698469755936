"""Text from bots and league files on its way into a page: one line, printable, capped."""

from __future__ import annotations

from typing import Any

MAX_TEXT = 200


def capped(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as one printable line of at most ``limit`` characters (HTML escaping is the templates')."""
    text = "".join(c if c.isprintable() else " " for c in str(value))
    return text if len(text) <= limit else text[: limit - 1] + "…"
