"""Bots at one table in this process: a whole game dealt from a seed, each seat's bot asked its decisions.

No referee, no clock, no faults: each bot gets :func:`rage_sdk.view.view_for` of its seat and its
answer is applied as it is (an illegal one raises). For benchmarks and simulations of bots whose
code is trusted; a contest referees its bots (``rage_referee.play.game``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Bid
from .bot import Bot
from .events import GameInfo
from .rules import Ruleset
from .state import CHANCE, GameState, Phase
from .view import view_for


def play_table(
    ruleset: Ruleset,
    bots: Sequence[Bot],
    seed: int,
    *,
    game: int = 0,
    names: Sequence[str] | None = None,
    decision_ms: int = 1000,
    bank_ms: int = 0,
) -> GameState:
    """Play one game dealt from ``seed`` among ``bots`` (seat by seat) and return its finished state.

    Each bot is first told the game (:meth:`Bot.on_game_start`, with ``game``, the seats' ``names``,
    default ``seat-N``, and the time control it is told of), then asked for every decision of its seat.

    :raises rage_sdk.errors.IllegalActionError: a bot's answer breaks a rule.
    """
    seats = tuple(names) if names is not None else tuple(f"seat-{seat}" for seat in range(len(bots)))
    for seat, bot in enumerate(bots):
        bot.on_game_start(GameInfo(game, seat, seats, ruleset, 1, decision_ms, bank_ms))
    state = GameState(ruleset, len(bots))
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.deal_seeded(seed)
            continue
        bot, view = bots[seat], view_for(state, seat)
        state.apply(Bid.of(bot.bid(view)) if state.phase is Phase.BID else bot.play(view), seat)
    return state
