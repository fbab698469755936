"""Benchmarks: figures measured beside a baseline run on the same machine in the same run."""

from __future__ import annotations

import random
import time
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

    def to_json(self) -> dict[str, float]:
        return {**asdict(self), "games_per_s": self.games_per_s, "decisions_per_s": self.decisions_per_s}


def engine_rate(ruleset: Ruleset, players: int, seconds: float) -> Rate:
    """Random games of the full engine, one after another on this core, for about ``seconds``."""
    rng = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        _, taken = random_game(ruleset, players, seed=games, rng=rng)
        games += 1
        decisions += taken
    return Rate(games, decisions, elapsed)


def plain_game(players: int, rng: random.Random) -> int:
    """A bare-bones trick-taking game (no action cards, no options, no checks) as a yardstick.

    Ten rounds of 10..1 cards from 96 coloured cards, trump from the pile's top card,
    random bids, random plays that follow suit. Returns the decisions taken.
    """
    draw = rng.random
    deck = list(range(96))
    decisions = 0
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
        sum(10 if w == b else -5 for w, b in zip(won, bids))
    return decisions


def baseline_rate(players: int, seconds: float) -> Rate:
    """:func:`plain_game` played for about ``seconds``."""
    rng = random.Random(0)
    games = decisions = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        decisions += plain_game(players, rng)
        games += 1
    return Rate(games, decisions, elapsed)
