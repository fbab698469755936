"""``rage bench engine``: random games of the full engine beside a bare trick-taking baseline.

:class:`Rate` and :func:`take_turns` are how every speed benchmark times its games.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass

from rage_sdk.rules import Ruleset
from rage_sdk.simulate import random_game


@dataclass(frozen=True)
class Rate:
    """Complete games played in ``seconds`` and the decisions (bids and plays) they took."""

    games: int
    decisions: int
    seconds: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds

    def __add__(self, other: Rate) -> Rate:
        return Rate(self.games + other.games, self.decisions + other.decisions, self.seconds + other.seconds)

    def to_json(self) -> dict[str, float]:
        return {**asdict(self), "games_per_s": self.games_per_s, "decisions_per_s": self.decisions_per_s}


def engine_games(ruleset: Ruleset, players: int) -> Iterator[int]:
    """Random games of the full engine, one after another: the decisions (bids and plays) each took."""
    rng = random.Random(0)
    for seed in itertools.count():
        yield random_game(ruleset, players, seed=seed, rng=rng)[1]


def timed(games: Iterator[int], seconds: float) -> Rate:
    """Games from ``games`` for about ``seconds`` on this core."""
    played = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += next(games)
        played += 1
    return Rate(played, decisions, elapsed)


def take_turns(streams: list[Iterator[int]], seconds: float, turn: float = 0.1) -> list[Rate]:
    """The streams of games in turns of about ``turn`` seconds each, until each ran ``seconds`` in all.

    Taking turns, all see the same load from whatever else runs on the machine, so their ratios hold.
    """
    rates = [Rate(0, 0, 0.0) for _ in streams]
    while any(rate.seconds < seconds for rate in rates):
        rates = [rate + timed(games, min(turn, seconds - rate.seconds)) for rate, games in zip(rates, streams)]
    return rates


def engine_rate(ruleset: Ruleset, players: int, seconds: float) -> Rate:
    """Random games of the full engine for about ``seconds``."""
    return timed(engine_games(ruleset, players), seconds)


def plain_game(players: int, rng: random.Random) -> int:
    """A bare-bones trick-taking game (no action cards, no options, no checks) as a yardstick.

    Ten rounds of 10..1 cards from 96 coloured cards, trump from the pile's top card,
    random bids, random plays that follow suit, Oh Hell scoring. Returns the decisions taken.
    """
    draw = rng.random
    deck = list(range(96))
    decisions = 0
    totals = [0] * players
    for cards in range(10, 0, -1):
        rng.shuffle(deck)
        hands = [deck[seat * cards : seat * cards + cards] for seat in range(players)]
        trump = deck[players * cards] >> 4
        decisions += players
        bids = [int(draw() * (cards + 1)) for _ in range(players)]
        won = [0] * players
        leader = 0
        for _ in range(cards):
            lead = -1
            best = winner = -1
            for offset in range(players):
                seat = (leader + offset) % players
                hand = hands[seat]
                legal = [card for card in hand if card >> 4 == lead] or hand if lead >= 0 else hand
                card = legal[int(draw() * len(legal))]
                hand.remove(card)
                decisions += 1
                if lead < 0:
                    lead = card >> 4
                rank = (card & 15) + (32 if card >> 4 == trump else 16 if card >> 4 == lead else 0)
                if rank > best:
                    best, winner = rank, seat
            won[winner] += 1
            leader = winner
        for seat in range(players):
            totals[seat] += won[seat] + (10 if won[seat] == bids[seat] else -5)
    return decisions


def baseline_games(players: int) -> Iterator[int]:
    """:func:`plain_game` after :func:`plain_game`: the decisions each took."""
    rng = random.Random(0)
    while True:
        yield plain_game(players, rng)


def baseline_rate(players: int, seconds: float) -> Rate:
    """:func:`plain_game` played for about ``seconds``."""
    return timed(baseline_games(players), seconds)
