"""Cards: six colours of 0-15 plus five kinds of action card.

A card is a small integer id, so the engine can keep hands as plain lists:
coloured cards are ``colour * 16 + value`` (0-95) and the action cards follow
(96-100). Copies of an action card share one id. :class:`Card` wraps an id
with a readable face and the text token of ``rules.md`` (``r15``, ``wild``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Colour(IntEnum):
    """The six colours, in the order of ``rules.md``."""

    RED = 0
    ORANGE = 1
    YELLOW = 2
    GREEN = 3
    BLUE = 4
    PURPLE = 5

    def __str__(self) -> str:
        """Its name, ``red``; the number is ``int(colour)`` (it compares and indexes as one still)."""
        return COLOUR_NAMES[self]

    def __repr__(self) -> str:
        return f"Colour.{self.name}"

    def __format__(self, spec: str) -> str:
        """Its name (``f"{colour}"``, ``f"{colour:>6}"``); as a number with a number's format (``f"{colour:d}"``)."""
        if spec and spec[-1] in "bcdeEfFgGnoxX%":
            return format(int(self), spec)
        return format(str(self), spec)

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @classmethod
    def from_letter(cls, letter: str) -> Colour:
        """The colour of a letter ``r o y g b p``; :class:`ValueError` otherwise."""
        try:
            return cls(COLOUR_LETTERS.index(letter))
        except ValueError:
            raise ValueError(f"unknown colour {letter!r} (expected one of r o y g b p)") from None


COLOURS_OR_NONE: Final[tuple[Colour | None, ...]] = (*Colour, None)
"""Indexed by a colour code: the engine's codes 0-5, and -1 (``NO_TRUMP``) for none."""


def colour_of(code: int) -> Colour | None:
    """The :class:`Colour` of an engine colour code; ``None`` for -1 (no trump, no lead)."""
    return COLOURS_OR_NONE[code]


def colour_code(colour: Colour | None) -> int:
    """The engine's code of a colour: its number, -1 (``NO_TRUMP``) for ``None``."""
    return -1 if colour is None else int(colour)


COLOUR_LETTERS: Final = "roygbp"
COLOUR_NAMES: Final = ("red", "orange", "yellow", "green", "blue", "purple")
NUM_COLOURS: Final = 6
NUM_VALUES: Final = 16
MAX_VALUE: Final = NUM_VALUES - 1

# Card ids. Coloured cards are 0..95; the action cards come after them.
NUM_COLOURED: Final = NUM_COLOURS * NUM_VALUES
WILD: Final = 96
NOTRUMP: Final = 97
CHANGE: Final = 98
PLUS5: Final = 99
MINUS5: Final = 100
NUM_CARD_IDS: Final = 101

ACTION_TOKENS: Final = ("wild", "notrump", "change", "plus5", "minus5")


def _token(card: int) -> str:
    if card < NUM_COLOURED:
        return f"{COLOUR_LETTERS[card >> 4]}{card & 15}"
    return ACTION_TOKENS[card - NUM_COLOURED]


TOKENS: Final = tuple(_token(card) for card in range(NUM_CARD_IDS))
_ID_BY_TOKEN: Final = {token: card for card, token in enumerate(TOKENS)}


def card_id(token: str) -> int:
    """The id of a card token; :class:`ValueError` naming the token if it is none."""
    try:
        return _ID_BY_TOKEN[token]
    except (KeyError, TypeError):
        raise ValueError(f"unknown card token {token!r}") from None


def token(card: int) -> str:
    """The text token of a card id."""
    return TOKENS[card]


class Card:
    """One card face, interned: ``Card.of("r15") is Card.of("r15")``.

    ``Card.of(token)`` parses, ``str(card)`` gives the token back, and ``card.id``
    is the small integer the engine uses.
    """

    __slots__ = ("id", "token")
    id: int
    token: str

    def __init__(self, card: int) -> None:
        if not 0 <= card < len(TOKENS):  # Card(-1) was minus5's token on no card of the deck
            raise ValueError(f"a card id is 0 to {len(TOKENS) - 1}, not {card!r}; Card.of(token) reads a token")
        object.__setattr__(self, "id", card)
        object.__setattr__(self, "token", TOKENS[card])

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    @staticmethod
    def of(token: str) -> Card:
        return CARDS[card_id(token)]

    @property
    def is_coloured(self) -> bool:
        return self.id < NUM_COLOURED

    @property
    def is_action(self) -> bool:
        return self.id >= NUM_COLOURED

    @property
    def colour(self) -> Colour | None:
        """The colour of a coloured card; ``None`` for an action card."""
        return Colour(self.id >> 4) if self.id < NUM_COLOURED else None

    @property
    def value(self) -> int | None:
        """The value of a coloured card; ``None`` for an action card."""
        return self.id & 15 if self.id < NUM_COLOURED else None

    def __str__(self) -> str:
        return self.token

    def __repr__(self) -> str:
        return f"Card.of({self.token!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and other.id == self.id

    def __hash__(self) -> int:
        return self.id

    def __lt__(self, other: Card) -> bool:
        return self.id < other.id

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Card.of, (self.token,)


CARDS: Final = tuple(Card(card) for card in range(NUM_CARD_IDS))
