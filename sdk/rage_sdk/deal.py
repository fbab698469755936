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

Secret deals. A contest deals from a secret 256-bit *deal key* (32 bytes, written as 64
lowercase hex digits) instead of a small public seed, so no seat can search for the seed
from its own hand. The seed of the games of duplicate set ``i`` (a game of its own when
deals are not duplicated; game ``g`` of a ``rage match``) is

    ``seed = int.from_bytes(HMAC-SHA256(key, "rage-deal-seed/1:<i>")[:8], "big") >> 1``

(the message ASCII, ``i`` in decimal): 63 bits, so it fits a signed 64-bit integer. Before
the first game the contest publishes its *commitment*,
``SHA-256("rage-deal-commitment/1:" || key)`` in hex, and reveals the key after the last;
anyone can then check the commitment and recompute every deal. Test vector: the key of
32 zero bytes has commitment
``a5344087cba9287b8a5718b5a11272ffc311643f048278cd9bfff83712cdd496``, set 0 seed
7475893096318120968 and set 1 seed 1982567860715312904.

Public deals. A league or match given an explicit ``seed = N`` (for reproducible
experiments) deals set ``i`` from seed ``(N << 32) + i``: anyone who knows ``N`` knows
every deal, so such a contest publishes no commitment.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from functools import cache
from typing import NamedTuple

from .rules import Ruleset

KEY_BYTES = 32
"""A deal key's length: 256 bits."""
SEED_BITS = 63
"""A keyed seed's width: it fits a signed 64-bit database column."""


def keyed_seed(key: bytes, set_index: int) -> int:
    """The deal seed of duplicate set ``set_index`` under the secret deal ``key``."""
    if len(key) != KEY_BYTES:
        raise ValueError(f"a deal key is {KEY_BYTES} bytes, not {len(key)}")
    if set_index < 0:
        raise ValueError(f"set index must be a non-negative integer, not {set_index}")
    digest = hmac.new(key, f"rage-deal-seed/1:{set_index}".encode("ascii"), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> (64 - SEED_BITS)


def key_commitment(key: bytes) -> str:
    """The published commitment to a deal key: SHA-256 of the tagged key, in hex."""
    return hashlib.sha256(b"rage-deal-commitment/1:" + key).hexdigest()


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
    keys: tuple[int, ...] = _keys_of(size).unpack(stream)
    cards = list(deck)
    for i in range(size - 1, 0, -1):
        j = keys[i] % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


@cache
def _keys_of(size: int) -> struct.Struct:
    """The compiled layout of ``size`` big-endian 64-bit keys (built once, not parsed a round)."""
    return struct.Struct(f">{size}Q")


def seeded_deal(ruleset: Ruleset, players: int, seed: int, round_number: int) -> Deal:
    """The deal of game round ``round_number`` (1-based) for ``seed``."""
    hands, pile = dealt_cards(ruleset, players, seed, round_number)
    return Deal(list(map(list, hands)), list(pile))


def dealt_cards(
    ruleset: Ruleset, players: int, seed: int, round_number: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """:func:`seeded_deal` as tuples (the hands by seat, the pile top first): the engine keeps them as dealt."""
    cards = ruleset.rounds[round_number - 1]
    order = tuple(shuffled(ruleset.deck, seed, round_number))
    dealt = players * cards
    hands = []
    for start in range(0, dealt, cards):
        hands.append(order[start : start + cards])
    return tuple(hands), order[dealt:]
