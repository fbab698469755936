"""Hand-made deals and short ways to bid, play and inspect a game, for the rule tests.

Plays are written as text: ``"r5"``, ``"notrump"``, ``"change"`` (names no colour),
``"change:g"`` (names green), ``"wild:b"`` (declares blue), ``"wild:b7"`` (blue 7).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import pytest
from rage_sdk.actions import Bid, Play
from rage_sdk.cards import Colour, card_id, token
from rage_sdk.errors import IllegalActionError
from rage_sdk.rules import Ruleset
from rage_sdk.state import NO_TRUMP, GameState

WILDS = [f"wild:{letter}" for letter in "roygbp"]
"""The six plays of a wild that declares a colour only."""


def ids(tokens: Iterable[str]) -> list[int]:
    return [card_id(text) for text in tokens]


def tokens(cards: Iterable[int]) -> list[str]:
    return [token(card) for card in cards]


def play_of(text: str | Play) -> Play:
    """A play from its text form (see the module docstring)."""
    if isinstance(text, Play):
        return text
    card, _, declared = text.partition(":")
    if card == "wild" and declared:
        return Play.of("wild", colour=declared[0], value=int(declared[1:]) if declared[1:] else None)
    if card == "change" and declared:
        return Play.of("change", trump=declared)
    return Play.of(card)


def show(play: Play) -> str:
    """The text form of a play, the inverse of :func:`play_of`."""
    text = play.card.token
    if play.colour is not None:
        text += f":{play.colour.letter}" + ("" if play.value is None else str(play.value))
    elif play.trump is not None:
        text += f":{play.trump.letter}"
    return text


def deal(
    state: GameState, hands: Sequence[Sequence[str]], pile: Sequence[str] = (), *, fill_hands: bool = False
) -> None:
    """Deal ``hands`` (by seat) with ``pile`` on top of the pile (top first).

    The rest of the deck, in canonical order (``r0 .. p15`` then the action cards), first tops up
    short hands when ``fill_hands`` is set, then goes under ``pile``, so that hands and pile are
    exactly the ruleset's deck.
    """
    chosen = Counter(ids(text for hand in hands for text in hand)) + Counter(ids(pile))
    rest: list[int] = []
    for card in state.ruleset.deck:
        if chosen[card]:
            chosen[card] -= 1
        else:
            rest.append(card)
    if +chosen:
        raise ValueError(f"more copies than the deck holds: {tokens((+chosen).elements())}")
    dealt = [ids(hand) for hand in hands]
    if fill_hands:
        cards = state.ruleset.rounds[state.round_number - 1]
        for hand in dealt:
            need = cards - len(hand)
            hand += rest[:need]
            rest = rest[need:]
    state.deal(dealt, ids(pile) + rest)


def game(
    hands: Sequence[Sequence[str]],
    pile: Sequence[str] = (),
    *,
    preset: str = "amigo",
    dealer: int = 0,
    fill_hands: bool = False,
    **overrides: Any,
) -> GameState:
    """A one-round game (unless ``rounds`` is given) dealt as :func:`deal` does, waiting for bids."""
    overrides.setdefault("rounds", [max(len(hand) for hand in hands)])
    state = GameState(Ruleset.of(preset, **overrides), players=len(hands), dealer=dealer)
    deal(state, hands, pile, fill_hands=fill_hands)
    return state


def bid(state: GameState, bids: Sequence[int]) -> None:
    """Everyone's bid, ``bids`` by seat, made in bidding order."""
    first = state.current_player()
    for offset in range(state.players):
        seat = (first + offset) % state.players
        state.apply(Bid.of(bids[seat]), seat)


def started(
    hands: Sequence[Sequence[str]], pile: Sequence[str] = (), bids: Sequence[int] | None = None, **options: Any
) -> GameState:
    """:func:`game` with the bids made (default all 0): the first trick waits for its lead."""
    state = game(hands, pile, **options)
    bid(state, bids if bids is not None else [0] * len(hands))
    return state


def play(state: GameState, *plays: str | Play) -> None:
    """Play cards in order, each by the seat to move."""
    for text in plays:
        state.apply(play_of(text))


def legal(state: GameState) -> list[str]:
    """The legal plays of the seat to move, in text form."""
    return [show(action) for action in state.legal_plays()]


def trump(state: GameState) -> str | None:
    """The current trump colour's letter, or ``None``."""
    return colour_letter(state.trump)


def colour_letter(colour: int | Colour | None) -> str | None:
    """The letter of a colour (a trick's or round's ``Colour | None``, or the engine's code with ``NO_TRUMP``)."""
    return None if colour is None or colour == NO_TRUMP else Colour(colour).letter


def turned(state: GameState) -> list[str]:
    return tokens(state.turned)


def pile_top(state: GameState, count: int) -> list[str]:
    return tokens(state.pile_cards()[:count])


def assert_illegal(state: GameState, action: str | Play | int, fragment: str) -> IllegalActionError:
    """``action`` is refused by ``is_legal``, ``legal_actions`` and ``apply``, the message holding ``fragment``."""
    act: Bid | Play = Bid.of(action) if isinstance(action, int) else play_of(action)
    assert not state.is_legal(act)
    assert act not in state.legal_actions()
    with pytest.raises(IllegalActionError, match=re.escape(fragment)) as info:
        state.apply(act)
    return info.value
