"""``rage bench search``: the search toolkit's worlds sampled and greedy playouts, per second."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

from rage_sdk.rollout import greedy_policy, playout
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import WorldSampler
from rage_sdk.state import GameState
from rage_sdk.view import view_for


def search_worlds(players: int, worlds_per_view: int = 10) -> Iterator[int]:
    """Worlds drawn for the seat to move in random mid-round positions (amigo): ``worlds_per_view`` each."""
    rng = random.Random(0)
    ruleset = Ruleset.of("amigo")
    for seed in itertools.count():
        view = view_for(_random_position(ruleset, players, seed, rng), 0)
        sampler = WorldSampler(view)
        for _ in range(worlds_per_view):
            sampler.sample(rng)
        yield worlds_per_view


def search_playouts(players: int, worlds: int = 200) -> Iterator[int]:
    """Greedy playouts to the round's end, each from a rollout copy of one of ``worlds`` sampled
    worlds (drawn before any timing): the decisions each took."""
    rng = random.Random(0)
    ruleset = Ruleset.of("amigo")
    pool = [
        WorldSampler(view_for(_random_position(ruleset, players, seed, rng), 0)).sample(rng) for seed in range(worlds)
    ]
    return _playouts(pool, rng)


def _playouts(pool: list[GameState], rng: random.Random) -> Iterator[int]:
    for world in itertools.cycle(pool):
        fast = world.copy(history=False)
        decisions = sum(map(len, fast.hands)) + sum(bid is None for bid in fast.bids)
        playout(fast, rng, greedy_policy)
        yield decisions


def _random_position(ruleset: Ruleset, players: int, seed: int, rng: random.Random) -> GameState:
    """A random round (of the ruleset's rounds) dealt from ``seed``, played at random to a random moment."""
    state = GameState(ruleset, players, first_round=1 + seed % len(ruleset.rounds))
    state.deal_seeded(seed)
    for _ in range(rng.randrange(players * (state.cards + 1))):
        state.apply(rng.choice(state.legal_actions()))
    return state
