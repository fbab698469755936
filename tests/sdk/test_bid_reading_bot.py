"""The bid-reading bot: worlds that fit the opponents' bids drawn more often, legal games under the referee."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec
from rage_referee.runner import LocalRunner
from rage_referee.seats import BotSpec
from rage_sdk.cards import CARDS
from rage_sdk.events import GameInfo
from rage_sdk.examples import example_bot
from rage_sdk.examples.bid_reading_bot import BidReadingBot
from rage_sdk.examples.heuristic_bot import win_chance
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import WorldSampler
from rage_sdk.state import GameState, Phase
from rage_sdk.view import SeatView, view_for


def _worth(world: GameState, seat: int, view: SeatView) -> float:
    return sum(win_chance(CARDS[card], view.trump, view.players) for card in world.hands[seat])


def _view_after_bids(seed: int) -> SeatView:
    """Seat 0 (the dealer) to bid, every other seat's bid open: seat 1 bid three tricks."""
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(seed)
    for tricks in (3, 0, 1):
        state.apply(state.legal_bids()[tricks])
    assert state.phase is Phase.BID and state.to_move == 0
    return view_for(state, 0)


def test_worlds_favour_hands_that_fit_the_bids() -> None:
    view = _view_after_bids(4)
    bot = BidReadingBot()
    rng = random.Random(0)
    weighted, uniform = bot.sampler(view), WorldSampler(view)
    assert weighted.weight is not None and uniform.weight is None
    high = sum(_worth(weighted.sample(rng), 1, view) for _ in range(200)) / 200
    plain = sum(_worth(uniform.sample(rng), 1, view) for _ in range(200)) / 200
    assert high > plain + 0.3, f"seat 1 bid 3: its hand looks worth {high:.1f} tricks, {plain:.1f} unweighted"


def test_a_bid_no_hand_explains_still_gets_worlds() -> None:
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(4)
    for tricks in (10, 10, 10):
        state.apply(state.legal_bids()[tricks])
    view = view_for(state, 0)
    sampler, rng = BidReadingBot().sampler(view), random.Random(0)
    assert all(view_for(sampler.sample(rng), 0) == view for _ in range(5))


def test_with_no_bid_seen_worlds_are_uniform() -> None:
    state = GameState(Ruleset.of("amigo"), 4)
    state.deal_seeded(1)
    assert BidReadingBot().sampler(view_for(state, state.to_move)).weight is None


def test_a_game_under_the_referee_is_legal_and_within_the_deadline() -> None:
    bots = {
        "bid-reading": f"{example_bot('bid_reading_bot')}:BidReadingBot",
        "search": f"{example_bot('search_bot')}:SearchBot",
        "heuristic": f"{example_bot('heuristic_bot')}:HeuristicBot",
    }

    async def play() -> list[FinishedGame]:
        specs = [BotSpec.of(name, target) for name, target in bots.items()]
        spec = GameSpec(0, Ruleset.of("amigo", rounds=[4, 3, 1]), tuple(bots), 8)
        finished: list[FinishedGame] = []
        async with LocalRunner(specs, FaultLedger(10**9), 1, Path(".")) as runner:
            await runner.run([spec], finished.append)
        return finished

    (result,) = asyncio.run(play())
    assert not result.figures.faults, result.figures.faults


def test_the_budget_stays_within_half_the_referee_deadline() -> None:
    bot = BidReadingBot(budget_ms=900)
    bot.on_game_start(GameInfo(1, 0, ("a", "b"), Ruleset.of("amigo"), 1, 200, 0))
    assert bot.budget_ms == 100
