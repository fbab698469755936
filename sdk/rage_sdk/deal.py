"""Seeded deals that are the same on every platform, version and language.

The shuffle for game round ``r`` (1-based) of seed ``s`` is defined as:

1. ``stream = SHAKE-256("rage-deal/1:<s>:<r>")`` (ASCII, decimal numbers), read for
   ``8 * n`` bytes, ``n`` the deck size; ``key[i]`` is ``stream[8i:8i+8]`` read as a
   big-endian unsigned 64-bit integer;
2. start from the deck in canonical order (:attr:`Ruleset.deck`: ``r0..r15``, ``o0..``,
   ... ``p15``, then the action cards wild, notrump, change, plus5, minus5);
3. Fisher-Yates: for ``i`` from ``n - 1`` down to 1, swap positions ``i`` and
   ``key[i] mod (i + 1)``;
4. seat ``k`` gets shuffled cards ``k*c .. k*c+c-1`` for a round of ``c`` cards, and the
   rest is the pile, top first.

Every order has equal chance up to the modulo bias of 64-bit keys (below 10^-17), and
the recipe needs nothing but SHAKE-256, which every mainstream language ships.
"""

from __future__ import annotations

import hashlib
import struct
from typing import NamedTuple

from .rules import Ruleset


class Deal(NamedTuple):
    """One round's deal: each seat's hand, and the pile top first (card ids)."""

    hands: list[list[int]]
    pile: list[int]


def shuffled(deck: tuple[int, ...], seed: int, round_number: int) -> list[int]:
    """``deck`` in the documented shuffled order for ``seed`` and ``round_number``."""
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, not {seed}")
    size = len(deck)
    stream = hashlib.shake_256(f"rage-deal/1:{seed}:{round_number}".encode("ascii")).digest(8 * size)
    keys = struct.unpack(f">{size}Q", stream)
    cards = list(deck)
    for i in range(size - 1, 0, -1):
        j = keys[i] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def seeded_deal(ruleset: Ruleset, players: int, seed: int, round_number: int) -> Deal:
    """The deal of game round ``round_number`` (1-based) for ``seed``."""
    cards = ruleset.rounds[round_number - 1]
    order = shuffled(ruleset.deck, seed, round_number)
    hands = [order[seat * cards : seat * cards + cards] for seat in range(players)]
    return Deal(hands, order[players * cards :])
