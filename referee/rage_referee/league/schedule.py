"""Which bots meet where, in what seats, on which deal: a pure function of the league's settings.

Tables are every combination of ``players`` bots (or, when there are too many, a balanced design
in which every bot sits at the same number of tables). With duplicate deals, a table plays each
deal once in each seating of :func:`~.seatings.seatings` (2 at 2 players, all 6 at 3, 12 at 4,
``n * (n - 1)`` at a prime power ``n``): every bot plays every hand of the deal equally often, and
each ordered pair of bots sits at each relative position equally often, so luck of the deal and
of the neighbours cancels out within the set. Without duplicate deals a table's games rotate a
seat order drawn afresh every ``players`` games: every bot sits in every seat equally often and
no pair of bots keeps one relative position.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

from rage_sdk.deal import shuffled

from ..deals import deal_seed
from .seatings import Seating, seatings

MAX_TABLES = 120
"""Past this many combinations, tables come from a balanced design instead."""


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


def tables_for(bots: list[str], players: int, seed: int) -> list[tuple[str, ...]]:
    """Every combination of ``players`` bots, or a balanced design when that is too many.

    The balanced design cuts a line of shuffled line-ups of all the bots into tables, in whole
    cycles (the line's length a multiple of both), so every bot sits at the same number of tables;
    a line-up that would put a bot twice at the table spanning two line-ups is shuffled again.
    """
    if math.comb(len(bots), players) <= MAX_TABLES:
        return list(combinations(bots, players))
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
) -> list[ScheduledGame]:
    """The league's games in playing order. Give ``games`` (in all) or ``games_per_table``.

    With duplicate deals the count is rounded up to whole sets (``len(seatings(players))`` games).
    Deals come from the secret ``deal_key``, or without one from ``seed``
    (:func:`rage_referee.deals.deal_seed`).
    """
    tables = tables_for(bots, players, seed)
    unit = len(seatings(players)) if duplicate else 1
    if games_per_table is not None:
        units = [math.ceil(games_per_table / unit)] * len(tables)
    elif games is not None:
        total_units = math.ceil(games / unit)
        units = [total_units // len(tables) + (t < total_units % len(tables)) for t in range(len(tables))]
    else:
        raise ValueError("give games or games_per_table")
    out: list[ScheduledGame] = []
    played = [0] * len(tables)
    orders = list(tables)
    # Interleave the tables so that a league cut short has played every table about as often.
    for round_ in range(max(units, default=0)):
        for t, table in enumerate(tables):
            if round_ >= units[t]:
                continue
            set_id = len(out) // unit if duplicate else len(out)
            if duplicate:
                order = tuple(table[i] for i in shuffled(tuple(range(players)), seed, 2_000_000 + set_id))
                out += duplicate_set(order, deal_seed(set_id, key=deal_key, seed=seed), set_id, len(out))
            else:
                rotation = played[t] % players
                if rotation == 0:
                    orders[t] = tuple(table[i] for i in shuffled(tuple(range(players)), seed, 3_000_000 + len(out)))
                seats = tuple(orders[t][(seat + rotation) % players] for seat in range(players))
                out.append(ScheduledGame(len(out), seats, deal_seed(set_id, key=deal_key, seed=seed), set_id))
            played[t] += 1
    return out


def game_count(
    bots: list[str], players: int, games: int | None, games_per_table: int | None, *, duplicate: bool, seed: int
) -> int:
    """How many games :func:`schedule` plans for these settings, found without planning them."""
    unit = len(seatings(players)) if duplicate else 1
    if games_per_table is not None:
        return len(tables_for(bots, players, seed)) * math.ceil(games_per_table / unit) * unit
    if games is not None:
        return math.ceil(games / unit) * unit
    raise ValueError("give games or games_per_table")


def duplicate_set(
    table: tuple[str, ...], deal: int, set_id: int, first: int, plan: tuple[Seating, ...] | None = None
) -> list[ScheduledGame]:
    """Set ``set_id``'s games, numbered from ``first``: deal seed ``deal``, the bots in each seating of ``plan``.

    ``plan`` is :func:`~.seatings.seatings` of the table's size unless given.
    """
    plan = seatings(len(table)) if plan is None else plan
    return [ScheduledGame(first + k, tuple(table[p] for p in seating), deal, set_id) for k, seating in enumerate(plan)]
