"""Playouts for search: finish a round from a :class:`GameState` fast, with a cheap policy.

A rollout works on a copy made with ``state.copy(history=False)`` and takes its actions with
:meth:`GameState.apply_unchecked`: the policy picks from ``legal_actions()``, so nothing needs
checking again, and no record of tricks or rounds is kept. ::

    world = state.copy(history=False)
    points = playout(world, rng)           # the round's points by seat
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, Bid, Play
from .cards import MINUS5, NUM_COLOURED, WILD
from .state import NO_TRUMP, GameState, Phase

Policy = Callable[[GameState, list[Action], random.Random], Action]
"""Chooses one of the legal actions (never empty) for the seat to move in a state."""


def random_policy(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """Uniform over the legal actions."""
    return legal[int(rng.random() * len(legal))]


def _rank(play: Play, trump: int, lead: int) -> int:
    """How strongly ``play`` contends for the current trick: trumps over the lead colour, wilds on top."""
    card = play.card.id
    if card < NUM_COLOURED:
        colour, value = card >> 4, card & 15
    elif card == WILD:
        colour, value = int(play.colour), 16  # type: ignore[arg-type]
    else:
        return -1
    if colour == trump:
        return 40 + value
    return 20 + value if colour == lead or lead == NO_TRUMP else value


def _bid_guess(state: GameState, seat: int) -> int:
    """Tricks a hand may take: wilds, high trumps and very high cards."""
    trump, players = state.trump, state.players
    count = 0.0
    for card in state.hands[seat]:
        if card == WILD:
            count += 0.85
        elif card < NUM_COLOURED:
            value = card & 15
            if card >> 4 == trump:
                count += 0.3 + 0.7 * (value / 15) ** max(1.0, (players - 1) / 2)
            elif value >= 13:
                count += 0.25 * (value - 12)
    return min(state.cards, round(count))


def greedy_policy(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """A quick player that aims at its bid: bids what its hand looks worth, then, short of its bid,
    plays its strongest card, and once it is made, its weakest."""
    seat = state.to_move
    if state.phase is Phase.BID:
        guess = _bid_guess(state, seat)
        return min(legal, key=lambda bid: abs(bid.tricks - guess))  # type: ignore[union-attr]
    trump, lead = state.trump, state.lead
    short = (state.bids[seat] or 0) > state.tricks_won[seat]
    best = worst = legal[0]
    best_rank = worst_rank = _rank(best, trump, lead)  # type: ignore[arg-type]
    for play in legal[1:]:
        rank = _rank(play, trump, lead)  # type: ignore[arg-type]
        if rank > best_rank:
            best, best_rank = play, rank
        elif rank < worst_rank:
            worst, worst_rank = play, rank
    return best if short else worst


def aiming_policy(state: GameState, legal: list[Action], rng: random.Random) -> Action:
    """The heuristic bot's play rule, cheaply: bids as :func:`greedy_policy`; short of its bid it
    leads its strongest card and follows with the cheapest card that beats the trick so far (its
    weakest if none does); once the bid is made it sheds a -5, else plays the strongest card that
    stays under the trick so far (its strongest if every card would win)."""
    if state.phase is Phase.BID:
        return greedy_policy(state, legal, rng)
    seat, trump, lead = state.to_move, state.trump, state.lead
    short = (state.bids[seat] or 0) > state.tricks_won[seat]
    ranks = [_rank(play, trump, lead) for play in legal]  # type: ignore[arg-type]
    if not state.trick:
        return legal[ranks.index(max(ranks) if short else min(ranks))]
    top = max(_rank(play, trump, lead) for _, play in state.trick)
    if short:
        winners = [rank for rank in ranks if rank > top]
        return legal[ranks.index(min(winners) if winners else min(ranks))]
    for play in legal:
        if play.card.id == MINUS5:  # type: ignore[union-attr]
            return play
    losers = [rank for rank in ranks if rank < top]
    return legal[ranks.index(max(losers) if losers else max(ranks))]


def playout(
    state: GameState, rng: random.Random, policy: Policy = greedy_policy, first: Action | None = None
) -> tuple[int, ...]:
    """Play ``state`` (a rollout copy, changed in place) to the end of its round with ``policy``,
    after taking ``first`` (one of the legal actions; :class:`IllegalActionError` if not) if given.

    Returns the round's points by seat. The state must be mid-round (bidding or playing).
    """
    if state.phase is not Phase.BID and state.phase is not Phase.PLAY:
        raise ValueError(f"a playout starts while a round is played, not in phase {state.phase.value}")
    round_number = state.round_number
    totals = state.totals[:]
    if first is not None:
        state.apply(first)  # checked: an action the state does not allow is an IllegalActionError, not a wrong score
    while state.round_number == round_number:
        state.apply_unchecked(policy(state, state.legal_actions(), rng))
    return tuple(after - before for after, before in zip(state.totals, totals))


__all__ = ["Bid", "Policy", "aiming_policy", "greedy_policy", "playout", "random_policy"]
