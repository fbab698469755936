"""The seatings of one duplicate set: a balanced set of permutations of a table's bots.

A seating is a tuple ``p`` of table positions: seat ``s`` holds the table's bot ``p[s]``. The
seatings of a set form a 2-transitive permutation group on the seats, so over one set

- every bot sits in every seat (holds every hand of the deal) equally often, and
- every ordered pair of bots sits in every ordered pair of seats equally often, so each bot has
  each other bot at each relative position (one, two, ... seats after it) equally often.

Cyclic rotations alone give neither the second property nor, at 3 players, the seating in which
two bots swap hands while the third keeps its own. The groups, smallest known for each size:

- ``n`` a prime power (2, 3, 4, 5, 7, 8, 9): the affine maps ``x -> a*x + b`` over the field of
  ``n`` elements, ``n * (n - 1)`` seatings (at 2 both, at 3 all six);
- ``n = q + 1`` otherwise (6, 10): the fractional linear maps ``x -> (a*x + b) / (c*x + d)`` of
  determinant a square, over the projective line of the field of ``q`` elements
  (``(q + 1) * q * (q - 1) / 2`` seatings: 60 at 6, 360 at 10). No smaller set exists at 6 or 10
  with every ordered pair of seats equally often, as no projective plane of order 6 or 10 exists.
"""

from __future__ import annotations

from functools import cache
from itertools import product

Seating = tuple[int, ...]

_FIELDS = {2: (2, 1, ()), 3: (3, 1, ()), 4: (2, 2, (1, 1)), 5: (5, 1, ()), 7: (7, 1, ()), 8: (2, 3, (1, 1, 0))}
_FIELDS |= {9: (3, 2, (1, 0))}
"""q -> (p, k, the low coefficients of a monic irreducible polynomial of degree k over GF(p))."""


class _Field:
    """GF(q), q = p^k: an element is the number whose base-p digits are its polynomial's coefficients."""

    def __init__(self, q: int) -> None:
        p, k, low = _FIELDS[q]
        self.q = q
        digits = [self._digits(x, p, k) for x in range(q)]
        number = {tuple(d): x for x, d in enumerate(digits)}
        self.add = [[number[tuple((a + b) % p for a, b in zip(da, db))] for db in digits] for da in digits]
        self.mul = [[number[tuple(self._times(da, db, p, k, low))] for db in digits] for da in digits]

    @staticmethod
    def _digits(x: int, p: int, k: int) -> list[int]:
        return [(x // p**i) % p for i in range(k)]

    @staticmethod
    def _times(a: list[int], b: list[int], p: int, k: int, low: tuple[int, ...]) -> list[int]:
        product_ = [0] * (2 * k - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                product_[i + j] = (product_[i + j] + x * y) % p
        for top in range(2 * k - 2, k - 1, -1):  # x^k = -(low[0] + low[1] x + ...)
            c, product_[top] = product_[top], 0
            for i, coefficient in enumerate(low):
                product_[top - k + i] = (product_[top - k + i] - c * coefficient) % p
        return product_[:k]

    def inverse(self, x: int) -> int:
        return next(y for y in range(1, self.q) if self.mul[x][y] == 1)


@cache
def seatings(players: int) -> tuple[Seating, ...]:
    """The balanced seatings of a table of ``players`` (2-10), the identity first."""
    if players in _FIELDS:
        field = _Field(players)
        maps = {
            tuple(field.add[field.mul[a][x]][b] for x in range(players))
            for a, b in product(range(1, players), range(players))
        }
    elif players - 1 in _FIELDS:
        maps = _projective(_Field(players - 1))
    else:
        raise ValueError(f"no balanced seatings for {players} players")
    identity = tuple(range(players))
    return (identity, *sorted(maps - {identity}))


def _projective(field: _Field) -> set[Seating]:
    """PSL(2, q) on the points 0..q-1 of the field and q for infinity."""
    q, add, mul = field.q, field.add, field.mul
    negate = [next(y for y in range(q) if add[x][y] == 0) for x in range(q)]
    squares = {mul[x][x] for x in range(1, q)}
    maps: set[Seating] = set()
    for a, b, c, d in product(range(q), repeat=4):
        if add[mul[a][d]][negate[mul[b][c]]] not in squares:
            continue

        def image(x: int, a: int = a, b: int = b, c: int = c, d: int = d) -> int:
            if x == q:  # infinity goes to a / c
                return q if c == 0 else mul[a][field.inverse(c)]
            top, bottom = add[mul[a][x]][b], add[mul[c][x]][d]
            return q if bottom == 0 else mul[top][field.inverse(bottom)]

        maps.add(tuple(image(x) for x in range(q + 1)))
    return maps
