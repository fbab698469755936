"""Where a contest's deals come from: a secret key it commits to, or a public seed.

By default a league or match draws a 256-bit deal key (:func:`new_key`) and deals duplicate set
``i`` from :func:`rage_sdk.deal.keyed_seed`; it publishes the key's commitment before the first
game and reveals the key after the last. An explicit seed ``N`` deals set ``i`` from
``(N << 32) + i`` instead: reproducible, and public to anyone who knows ``N``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from rage_sdk.deal import KEY_BYTES, key_commitment, keyed_seed

MAX_SET_INDEX = 2**32 - 1


def new_key() -> bytes:
    """A fresh secret deal key."""
    return secrets.token_bytes(KEY_BYTES)


def key_from_hex(text: str) -> bytes:
    """A deal key from its 64 hex digits; :class:`ValueError` says what is wrong."""
    try:
        key = bytes.fromhex(text)
    except ValueError:
        raise ValueError(f"a deal key is {2 * KEY_BYTES} hex digits, not {text[:80]!r}") from None
    if len(key) != KEY_BYTES:
        raise ValueError(f"a deal key is {2 * KEY_BYTES} hex digits, not {len(text)}")
    return key


def deal_seed(set_index: int, *, key: bytes | None, seed: int) -> int:
    """The deal seed of duplicate set ``set_index``: from the secret ``key``, or public from ``seed``."""
    if key is not None:
        return keyed_seed(key, set_index)
    if not 0 <= set_index <= MAX_SET_INDEX:
        raise ValueError(f"set index {set_index} is out of range for a public seed")
    return (seed << 32) + set_index


@dataclass(frozen=True)
class Deals:
    """A contest's deals: secret (``key``) or public (``seed``)."""

    key: bytes | None
    seed: int = 0

    @classmethod
    def secret(cls) -> Deals:
        return cls(new_key())

    @classmethod
    def public(cls, seed: int) -> Deals:
        return cls(None, seed)

    @property
    def commitment(self) -> str | None:
        """The published hash of the key; ``None`` for public deals."""
        return None if self.key is None else key_commitment(self.key)

    def seed_for(self, set_index: int) -> int:
        return deal_seed(set_index, key=self.key, seed=self.seed)

    def describe(self) -> str:
        """One line for the organizer's terminal: what a watcher can check."""
        if self.key is None:
            return f"deals: public (seed {self.seed}): anyone who knows the seed knows every hand"
        return f"deals: secret, commitment {self.commitment}"
