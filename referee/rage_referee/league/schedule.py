"""Which bots meet where, in what seats, on which deal: a pure function of the league's settings.

Tables are every combination of ``players`` bots or, when there are more than :data:`MAX_TABLES`,
a pair-balanced design (:func:`pair_balanced_tables`). A league plays whole *rounds*: a round gives
every table one duplicate set (one game without duplicate deals), so every bot plays the same
number of games, and a ``games`` total that is not a whole number of rounds is rounded up.

With duplicate deals, a table plays each deal once in each seating of :func:`~.seatings.seatings`
(2 at 2 players, all 6 at 3, 12 at 4, ``n * (n - 1)`` at a prime power ``n``): every bot plays
every hand of the deal equally often, and each ordered pair of bots sits at each relative position
equally often, so luck of the deal and of the neighbours cancels out within the set. The seatings
of a set come in an order drawn from its secret deal seed, so which game of a set comes first
tells a bot nothing. Without duplicate deals a table's games rotate a seat order drawn afresh
every ``players`` games: every bot sits in every seat equally often and no pair of bots keeps one
relative position.

The design has a version (:data:`SCHEDULE_VERSION`), stored with every league: a league begun under
version 1 (before whole rounds, pair-balanced tables and the secret order) keeps its schedule.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from rage_sdk.deal import shuffled

from ..play.deals import deal_seed
from .seatings import Seating, seatings

MAX_TABLES = 120
"""Past this many combinations, tables come from a pair-balanced design of about this many tables."""

SCHEDULE_VERSION = 2
"""The schedule's design: 2 plays whole rounds, pair-balanced tables and each set's seatings in a secret
order; 1, the design before, is kept for the leagues and bundles made under it."""

SEARCH_STEPS = 150_000
"""Swaps the pair-balanced design tries at most (a count, not a time, so the design is reproducible)."""


@dataclass(frozen=True)
class ScheduledGame:
    index: int
    """Position in the league, from 0: finished games are stored under it."""
    seats: tuple[str, ...]
    """Bot names by seat."""
    seed: int
    """The deal seed (the same for every game of a duplicate set)."""
    set_id: int
    """The duplicate set (a game of its own when duplicate deals are off)."""


def tables_for(bots: list[str], players: int, seed: int, version: int = SCHEDULE_VERSION) -> list[tuple[str, ...]]:
    """Every combination of ``players`` bots, or past :data:`MAX_TABLES` of them a design in which every bot
    sits at the same number of tables: :func:`pair_balanced_tables` (version 1: :func:`_line_tables`)."""
    if math.comb(len(bots), players) <= MAX_TABLES:
        return list(combinations(bots, players))
    if version == 1:
        return _line_tables(bots, players, seed)
    return [tuple(bots[i] for i in table) for table in pair_balanced_tables(len(bots), players, seed)]


def table_count(bots: int, players: int) -> int:
    """How many tables :func:`tables_for` seats, without building them."""
    if math.comb(bots, players) <= MAX_TABLES:
        return math.comb(bots, players)
    count = MAX_TABLES
    while count * players % bots:  # every bot at the same number of tables
        count += 1
    return count


@cache
def pair_balanced_tables(bots: int, players: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """:func:`table_count` tables of ``players`` of the bots ``0 .. bots - 1``, every bot at as many as any
    other, and every pair of bots meeting as equally often as the search finds: where the counts allow it,
    at ``floor`` or ``ceil`` of the mean (a balanced incomplete block design when the mean is whole).

    The search starts from whole shuffled line-ups of the bots cut into tables (every bot equally often)
    and swaps two bots of two tables while that does not raise the sum of squared pair counts (now and
    then, at random, when it does, to leave a local minimum), aiming half its swaps at pairs that meet
    too often or too rarely. It stops when every pair is within the bounds, or after :data:`SEARCH_STEPS`.
    """
    rng = random.Random(f"rage-tables/2:{bots}:{players}:{seed}")
    count = table_count(bots, players)
    line: list[int] = []
    while len(line) < count * players:
        pending = line[len(line) - len(line) % players :]
        while True:
            order = list(range(bots))
            rng.shuffle(order)
            if not set(pending) & set(order[: players - len(pending)]):
                break
        line += order
    tables = [line[i : i + players] for i in range(0, count * players, players)]
    meets = [[0] * bots for _ in range(bots)]
    for table in tables:
        for x, y in combinations(table, 2):
            meets[x][y] += 1
            meets[y][x] += 1
    low, extra = divmod(count * math.comb(players, 2), math.comb(bots, 2))
    high = low + (extra > 0)
    off: list[tuple[int, int]] = []
    for step in range(SEARCH_STEPS):
        if step % 1000 == 0:
            off = [(x, y) for x, y in combinations(range(bots), 2) if not low <= meets[x][y] <= high]
            if not off:
                break
        if rng.random() < 0.5:
            swap = _aimed_swap(tables, meets, off[rng.randrange(len(off))], high, rng)
            if swap is None:
                continue
            a, i, b, j = swap
        else:
            a, b, i, j = rng.randrange(count), rng.randrange(count), rng.randrange(players), rng.randrange(players)
        first, second = tables[a], tables[b]
        x, y = first[i], second[j]
        if a == b or x in second or y in first:
            continue
        change: Counter[tuple[int, int]] = Counter()
        for z in first:
            if z != x:
                change[x, z] -= 1
                change[y, z] += 1
        for z in second:
            if z != y:
                change[y, z] -= 1
                change[x, z] += 1
        cost = sum(2 * meets[p][q] * d + d * d for (p, q), d in change.items())
        if cost <= 0 or rng.random() < math.exp(-cost / 0.3):
            for (p, q), d in change.items():
                meets[p][q] += d
                meets[q][p] += d
            first[i], second[j] = y, x
    return tuple(tuple(table) for table in tables)


def _aimed_swap(
    tables: list[list[int]], meets: list[list[int]], pair: tuple[int, int], high: int, rng: random.Random
) -> tuple[int, int, int, int] | None:
    """A swap (table, place, table, place) that moves one bot of a pair meeting too often away from the
    other, or towards it when they meet too rarely; none when there is no such swap to draw."""
    x, z = pair if rng.random() < 0.5 else pair[::-1]
    holding = [t for t, table in enumerate(tables) if x in table]
    if meets[x][z] > high:
        sources = [t for t in holding if z in tables[t]]
        targets = list(range(len(tables)))
    else:
        sources = [t for t in holding if z not in tables[t]]
        targets = [t for t, table in enumerate(tables) if z in table and x not in table]
    if not sources or not targets:
        return None
    a, b = sources[rng.randrange(len(sources))], targets[rng.randrange(len(targets))]
    j = rng.randrange(len(tables[b]))
    if tables[b][j] == z:
        return None
    return a, tables[a].index(x), b, j


def _line_tables(bots: list[str], players: int, seed: int) -> list[tuple[str, ...]]:
    """Version 1's design: a line of shuffled line-ups of all the bots cut into tables, in whole cycles
    (the line's length a multiple of both), so every bot sits at the same number of tables; a line-up that
    would put a bot twice at the table spanning two line-ups is shuffled again. Pairs meet unequally."""
    line: list[str] = []
    draw = 0
    while len(line) < MAX_TABLES * players or len(line) % players:
        pending = line[len(line) - len(line) % players :]
        while True:
            order = [bots[i] for i in shuffled(tuple(range(len(bots))), seed, 1_000_000 + draw)]
            draw += 1
            if not set(pending) & set(order[: players - len(pending)]):
                break
        line += order
    return [tuple(line[i : i + players]) for i in range(0, len(line), players)]


def schedule(
    bots: list[str],
    players: int,
    *,
    games: int | None = None,
    games_per_table: int | None = None,
    seed: int = 0,
    duplicate: bool = True,
    deal_key: bytes | None = None,
    version: int = SCHEDULE_VERSION,
) -> list[ScheduledGame]:
    """The league's games in playing order. Give ``games`` (in all) or ``games_per_table``.

    The count is rounded up to whole rounds (:func:`schedule_size`). Deals come from the secret
    ``deal_key``, or without one from ``seed`` (:func:`rage_referee.play.deals.deal_seed`).
    """
    tables = tables_for(bots, players, seed, version)
    unit = len(seatings(players)) if duplicate else 1
    units = _units(len(tables), unit, games, games_per_table, version)
    out: list[ScheduledGame] = []
    played = [0] * len(tables)
    orders = list(tables)
    # Interleave the tables so that a league cut short has played every table about as often.
    for round_ in range(max(units, default=0)):
        for t, table in enumerate(tables):
            if round_ >= units[t]:
                continue
            set_id = len(out) // unit if duplicate else len(out)
            deal = deal_seed(set_id, key=deal_key, seed=seed)
            if duplicate:
                order = tuple(table[i] for i in shuffled(tuple(range(players)), seed, 2_000_000 + set_id))
                out += duplicate_set(order, deal, set_id, len(out), secret_order(seatings(players), deal, version))
            else:
                rotation = played[t] % players
                if rotation == 0:
                    orders[t] = tuple(table[i] for i in shuffled(tuple(range(players)), seed, 3_000_000 + len(out)))
                seats = tuple(orders[t][(seat + rotation) % players] for seat in range(players))
                out.append(ScheduledGame(len(out), seats, deal, set_id))
            played[t] += 1
    return out


def secret_order(plan: tuple[Seating, ...], deal: int, version: int) -> tuple[Seating, ...]:
    """A set's seatings in the order its games are played: drawn from the set's deal seed, which no bot
    knows before the set is over (version 1: the design's own order)."""
    if version == 1:
        return plan
    return tuple(plan[i] for i in shuffled(tuple(range(len(plan))), deal, 4_000_000))


def schedule_size(
    bots: list[str],
    players: int,
    *,
    games: int | None = None,
    games_per_table: int | None = None,
    duplicate: bool = True,
    version: int = SCHEDULE_VERSION,
) -> tuple[int, int]:
    """How many tables :func:`schedule` seats and how many games it gives them in all, without building it."""
    tables = table_count(len(bots), players) if version > 1 else len(tables_for(bots, players, 0, version))
    unit = len(seatings(players)) if duplicate else 1
    return tables, unit * sum(_units(tables, unit, games, games_per_table, version))


def _units(tables: int, unit: int, games: int | None, games_per_table: int | None, version: int) -> list[int]:
    """Sets (or games, for ``unit`` 1) of each table: ``games_per_table`` at each, or ``games`` shared out in
    whole rounds, every table as many (version 1: as evenly as the count allows)."""
    if games_per_table is not None:
        return [math.ceil(games_per_table / unit)] * tables
    if games is not None:
        total_units = math.ceil(games / unit)
        if version > 1:
            return [math.ceil(total_units / tables)] * tables
        return [total_units // tables + (t < total_units % tables) for t in range(tables)]
    raise ValueError("give games or games_per_table")


def duplicate_set(
    table: tuple[str, ...], deal: int, set_id: int, first: int, plan: tuple[Seating, ...] | None = None
) -> list[ScheduledGame]:
    """Set ``set_id``'s games, numbered from ``first``: deal seed ``deal``, the bots in each seating of ``plan``.

    ``plan`` is :func:`~.seatings.seatings` of the table's size unless given.
    """
    plan = seatings(len(table)) if plan is None else plan
    return [ScheduledGame(first + k, tuple(table[p] for p in seating), deal, set_id) for k, seating in enumerate(plan)]
