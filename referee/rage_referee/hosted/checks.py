"""Limits and validation of what requests carry; a failure names the field."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from .errors import InvalidArgument

MAX_REQUEST_BYTES = 64 * 1024
"""The largest request the server accepts (gRPC refuses bigger ones with RESOURCE_EXHAUSTED)."""
MAX_BOTS_PER_ENTRANT = 100
"""Bots one entrant may register or submit, with its token or its bots' (the admin token only
:data:`~rage_referee.limits.MAX_HOSTED_BOTS`): no one entrant takes every place."""
MAX_ENTRANTS = 1000
"""Entrants, at most, once a sign-up would make one more (the organizer adds them past it)."""
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def check_name(value: str, field: str, longest: int) -> str:
    """A bot or league name: letters, digits, ``_ . -``, starting with a letter or digit."""
    if not value:
        raise InvalidArgument(field, "missing")
    if len(value) > longest:
        raise InvalidArgument(field, f"at most {longest} characters, not {len(value)}")
    if not _NAME.fullmatch(value):
        raise InvalidArgument(
            field, f"{value!r}: use letters, digits, '_', '.' and '-', starting with a letter or digit"
        )
    return value


def check_text(value: str, field: str, longest: int) -> str:
    """Free text on one line: printable, at most ``longest`` characters."""
    if len(value) > longest:
        raise InvalidArgument(field, f"at most {longest} characters, not {len(value)}")
    if not value.isprintable():
        raise InvalidArgument(field, "only printable characters on one line")
    return value


def name_key(name: str) -> str:
    """What names that are one compare by: ``name`` in Unicode NFKC, case folded (``Ann``, ``ANN`` and a
    fullwidth ``Ａｎｎ`` are all ``ann``)."""
    return unicodedata.normalize("NFKC", name).casefold()


def same_name(names: Iterable[str], name: str) -> str | None:
    """The name among ``names`` that is ``name`` by :func:`name_key` (``Ann`` is ``ann``), if one is."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)


def written_otherwise(taken: str, name: str) -> str:
    """What a refusal of ``name`` adds when the name ``taken`` is it written otherwise (:func:`name_key`)."""
    return "" if taken == name else f", the same name as {name!r} (names are compared without case or width)"
