"""Actions: a :class:`Bid`, or a :class:`Play` of a card with its declaration.

A wild's declared ``colour`` (and ``value`` under ``wild_declares_value``) and a
choose-mode change's ``trump`` are part of the play, so every legal play is one
distinct value. Legal plays have a small integer ``code`` and are interned:
the engine hands out the same objects every time, which keeps it fast.
"""

from __future__ import annotations

import warnings
from typing import Any, Final

from .cards import (
    CARDS,
    CHANGE,
    NUM_COLOURED,
    NUM_COLOURS,
    NUM_VALUES,
    WILD,
    Card,
    Colour,
)

# Play codes: coloured cards and the plain action cards use their card id (notrump,
# plus5, minus5, and a change that names no colour); then a change naming each colour,
# a wild declaring each colour, and a wild declaring each colour and value.
CHANGE_COLOUR_BASE: Final = 101
WILD_COLOUR_BASE: Final = CHANGE_COLOUR_BASE + NUM_COLOURS
WILD_VALUE_BASE: Final = WILD_COLOUR_BASE + NUM_COLOURS
NUM_PLAY_CODES: Final = WILD_VALUE_BASE + NUM_COLOURS * NUM_VALUES
NOT_CANONICAL: Final = -1


def _colour(colour: str | Colour | None) -> Colour | None:
    """A colour given as a :class:`Colour` or its letter (:class:`ValueError` for any other letter)."""
    return colour if colour is None or isinstance(colour, Colour) else Colour.from_letter(colour)


def _renamed(old: str, new: str) -> None:
    warnings.warn(f"{old} is deprecated: use {new}", DeprecationWarning, stacklevel=3)


def _code(card: int, colour: int | None, value: int | None, trump: int | None) -> int:
    """The code of a play in its one legal shape, or ``NOT_CANONICAL``."""
    if card == WILD:
        if colour is None or trump is not None:
            return NOT_CANONICAL
        if value is None:
            return WILD_COLOUR_BASE + colour
        if 0 <= value < NUM_VALUES:
            return WILD_VALUE_BASE + colour * NUM_VALUES + value
        return NOT_CANONICAL
    if colour is not None or value is not None:
        return NOT_CANONICAL
    if card == CHANGE and trump is not None:
        return CHANGE_COLOUR_BASE + trump
    return card if trump is None else NOT_CANONICAL


class Play:
    """A card played, with a wild's declared ``colour`` (and ``value``) or a change's ``trump``.

    ``Play.of("r15")``, ``Play.of("wild", colour="b")``, ``Play.of("change", trump="g")``.
    Any combination can be built (a record may hold a wild with no colour); the
    engine decides whether it is legal. ``color`` is the old name of ``colour``: it still
    reads (and builds, as a keyword), with a :class:`DeprecationWarning`.
    """

    __slots__ = ("card", "code", "colour", "trump", "value")
    card: Card
    colour: Colour | None
    """The colour a wild declares; ``None`` for any other card."""
    value: int | None
    """The value a wild declares under ``wild_declares_value``."""
    trump: Colour | None
    """The colour a change names in ``choose`` mode."""
    code: int

    def __init__(
        self,
        card: Card,
        colour: Colour | None = None,
        value: int | None = None,
        trump: Colour | None = None,
        *,
        color: Colour | None = None,
    ) -> None:
        if color is not None:
            _renamed("Play(color=...)", "Play(colour=...)")
            colour = color if colour is None else colour
        object.__setattr__(self, "card", card)
        object.__setattr__(self, "colour", colour)
        object.__setattr__(self, "value", value)
        object.__setattr__(self, "trump", trump)
        object.__setattr__(self, "code", _code(card.id, colour, value, trump))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    @property
    def color(self) -> Colour | None:
        """Deprecated: the old name of :attr:`colour`."""
        _renamed("Play.color", "Play.colour")
        return self.colour

    @staticmethod
    def of(
        card: str | Card,
        colour: str | Colour | None = None,
        value: int | None = None,
        trump: str | Colour | None = None,
        *,
        color: str | Colour | None = None,
    ) -> Play:
        """A play from a card or its token, and colours or their letters; the interned object when there is one."""
        if color is not None:
            _renamed("Play.of(color=...)", "Play.of(colour=...)")
            colour = color if colour is None else colour
        play = Play(card if isinstance(card, Card) else Card.of(card), _colour(colour), value, _colour(trump))
        return PLAYS[play.code] if play.code != NOT_CANONICAL else play

    def _key(self) -> tuple[int, int | None, int | None, int | None]:
        return (self.card.id, self.colour, self.value, self.trump)

    def __reduce__(self) -> tuple[Any, ...]:
        """Copied and pickled through :meth:`of`, so a legal play comes back as the interned one."""
        colour, trump = (None if c is None else c.letter for c in (self.colour, self.trump))
        return Play.of, (self.card, colour, self.value, trump)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def to_json(self) -> dict[str, Any]:
        """The declaration part of a record's play: ``{"card": "wild", "color": "b"}``."""
        out: dict[str, Any] = {"card": self.card.token}
        if self.colour is not None:
            out["color"] = self.colour.letter
        if self.value is not None:
            out["value"] = self.value
        if self.card.id == CHANGE and (self.trump is not None or self.code == CHANGE):
            out["trump"] = None if self.trump is None else self.trump.letter
        return out

    def __str__(self) -> str:
        text = self.card.token
        if self.colour is not None:
            text += f" as {self.colour.letter}" + ("" if self.value is None else str(self.value))
        if self.trump is not None:
            text += f" naming {self.trump.name.lower()}"
        return text

    def __repr__(self) -> str:
        args = [repr(self.card.token)]
        if self.colour is not None:
            args.append(f"colour={self.colour.letter!r}")
        if self.value is not None:
            args.append(f"value={self.value!r}")
        if self.trump is not None:
            args.append(f"trump={self.trump.letter!r}")
        return f"Play.of({', '.join(args)})"


def _canonical(code: int) -> Play:
    if code < CHANGE_COLOUR_BASE:
        return Play(CARDS[code])
    if code < WILD_COLOUR_BASE:
        return Play(CARDS[CHANGE], trump=Colour(code - CHANGE_COLOUR_BASE))
    if code < WILD_VALUE_BASE:
        return Play(CARDS[WILD], colour=Colour(code - WILD_COLOUR_BASE))
    colour, value = divmod(code - WILD_VALUE_BASE, NUM_VALUES)
    return Play(CARDS[WILD], colour=Colour(colour), value=value)


#: Every legal play by code (the unused code of a wild without a colour holds one anyway).
PLAYS: Final = tuple(_canonical(code) for code in range(NUM_PLAY_CODES))
#: Per card id, the plays of that card that need no declaration (empty for a wild).
PLAIN_PLAYS: Final = tuple((PLAYS[card],) if card != WILD else () for card in range(NUM_COLOURED + 5))
#: A change that names a colour, by colour.
CHANGE_PLAYS: Final = tuple(PLAYS[CHANGE_COLOUR_BASE + colour] for colour in range(NUM_COLOURS))
#: A wild declaring each colour.
WILD_COLOUR_PLAYS: Final = tuple(PLAYS[WILD_COLOUR_BASE + colour] for colour in range(NUM_COLOURS))
#: A wild declaring each colour and value.
WILD_VALUE_PLAYS: Final = tuple(PLAYS[WILD_VALUE_BASE + code] for code in range(NUM_COLOURS * NUM_VALUES))


class Bid:
    """A bid of ``tricks`` tricks for the round. Interned: ``Bid.of(2) is Bid.of(2)``."""

    __slots__ = ("tricks",)
    tricks: int

    def __init__(self, tricks: int) -> None:
        object.__setattr__(self, "tricks", tricks)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Bid is immutable")

    @staticmethod
    def of(tricks: int) -> Bid:
        return BIDS[tricks] if 0 <= tricks < len(BIDS) else Bid(tricks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Bid) and other.tricks == self.tricks

    def __hash__(self) -> int:
        return hash(("bid", self.tricks))

    def __int__(self) -> int:
        return self.tricks

    def __reduce__(self) -> tuple[Any, ...]:
        return Bid.of, (self.tricks,)

    def __str__(self) -> str:
        return f"bid {self.tricks}"

    def __repr__(self) -> str:
        return f"Bid.of({self.tricks})"


#: Bids 0..112, enough for any hand a deck can deal.
BIDS: Final = tuple(Bid(tricks) for tricks in range(113))

Action = Bid | Play


__all__ = [
    "BIDS",
    "PLAYS",
    "Action",
    "Bid",
    "Play",
]
