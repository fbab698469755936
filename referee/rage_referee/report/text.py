"""Text from bots and league files on its way into a page: one line, printable, capped (``text.one_line``)."""

from __future__ import annotations

from typing import Any

from ..text import one_line

MAX_TEXT = 200


def capped(value: Any, limit: int = MAX_TEXT) -> str:
    """``value`` as one printable line of at most ``limit`` characters (HTML escaping is the templates')."""
    return one_line(str(value), limit)
