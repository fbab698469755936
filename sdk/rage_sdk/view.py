"""What one seat may see: the information boundary of ``rules.md``.

:func:`view_for` is the only road from a :class:`GameState` to a player. A
:class:`SeatView` holds the seat's own hand; every card turned up from the pile;
every card played with its declaration; the current trump; tricks won; scores of
finished rounds; cards left in each hand; seats, dealer and ruleset; and the bids
the ``bidding`` mode shows. Never another seat's hand, never the pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Play
from .cards import CARDS, Card, Colour
from .rules import Ruleset
from .state import NO_TRUMP, GameState, Phase, RoundResult, Trick


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of a game at one moment."""

    seat: int
    players: int
    ruleset: Ruleset
    phase: Phase
    round_number: int
    cards: int
    """Cards dealt to each seat this round."""
    dealer: int
    to_move: int
    """The seat to act, or ``CHANCE``/``TERMINAL``."""
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turned: tuple[Card, ...]
    """Cards turned up from the pile this round, in order."""
    trump: Colour | None
    bids: tuple[int | None, ...]
    """Bids by seat; ``None`` where not made yet or not visible under hidden/secret bidding."""
    trick: tuple[tuple[int, Play], ...]
    """The trick being played: ``(seat, play)`` in order."""
    lead: Colour | None
    tricks: tuple[Trick, ...]
    """This round's finished tricks."""
    tricks_won: tuple[int, ...]
    results: tuple[RoundResult, ...]
    """Finished rounds, scored."""
    totals: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    """The seat's legal bids or plays when it is to move, else empty."""

    @property
    def my_turn(self) -> bool:
        return self.to_move == self.seat


def view_for(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may see of ``state`` now."""
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} among {state.players} players")
    dealt = state.phase is Phase.BID or state.phase is Phase.PLAY
    return SeatView(
        seat=seat,
        players=state.players,
        ruleset=state.ruleset,
        phase=state.phase,
        round_number=state.round_number,
        cards=state.cards,
        dealer=state.dealer,
        to_move=state.current_player(),
        hand=tuple(CARDS[card] for card in state.hands[seat]),
        hand_sizes=tuple(len(hand) for hand in state.hands),
        turned=tuple(CARDS[card] for card in state.turned),
        trump=None if state.trump == NO_TRUMP else Colour(state.trump),
        bids=tuple(state.visible_bids(seat)),
        trick=tuple(state.trick),
        lead=None if state.lead == NO_TRUMP else Colour(state.lead),
        tricks=tuple(state.tricks),
        tricks_won=tuple(state.tricks_won),
        results=tuple(state.results),
        totals=tuple(state.totals),
        legal_actions=tuple(state.legal_actions()) if dealt and state.to_move == seat else (),
    )
