"""What one seat may see: the information boundary of ``rules.md``.

:func:`view_for` is the only road from a :class:`GameState` to a player: the typed form of
:func:`rage_sdk.visibility.seen`, which decides what a seat sees. A :class:`SeatView` holds
the seat's own hand; every card turned up from the pile; every card played with its
declaration; the current trump; tricks won; scores of finished rounds; cards left in each
hand; seats, dealer and ruleset; and the bids the ``bidding`` mode shows. Never another
seat's hand, never the pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Action, Bid, Play
from .cards import CARDS, CHANGE, NOTRUMP, WILD, Card, Colour, colour_code, colour_of
from .rules import Ruleset, WildTie
from .state import GameState, Phase, RoundResult, Trick, trick_winner
from .visibility import seen


@dataclass(slots=True)
class SeatView:
    """One seat's view of a game at one moment: a fresh one for every decision, the bot's to keep."""

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

    @property
    def legal_plays(self) -> tuple[Play, ...]:
        """The legal plays when it is this seat's turn to play (empty while bidding)."""
        return tuple(action for action in self.legal_actions if isinstance(action, Play))

    @property
    def legal_bids(self) -> tuple[int, ...]:
        """The legal bids when it is this seat's turn to bid."""
        return tuple(action.tricks for action in self.legal_actions if isinstance(action, Bid))

    def cards_seen(self) -> tuple[Card, ...]:
        """Every card this seat knows the place of this round: its hand, turned up, or played."""
        played = [play.card for trick in self.tricks for _, play in trick.plays]
        played += [play.card for _, play in self.trick]
        return self.hand + self.turned + tuple(played)

    def winning_so_far(self) -> int | None:
        """The seat that would win the current trick if it ended now (``None`` before its first card)."""
        if not self.trick:
            return None
        rules = self.ruleset
        later_wins = rules.wild_tie is WildTie.LATER_WINS and not rules.wild_declares_value
        trump = colour_code(self.trump)
        lead = colour_code(self.lead)
        return trick_winner(self.trick, trump, lead, later_wins, rules.wild_declares_value)

    def would_win(self, play: Play) -> bool:
        """Whether ``play``, played by this seat now, would win the trick if the trick ended with it.

        The trick is judged as it stands with ``play`` added, under the trump as ``play`` leaves it: a
        ``notrump`` cancels it, a ``change`` naming a colour (mode ``choose``) sets it; a ``change`` that
        reveals the pile's next colour cannot be foreseen, so the trump stays as it is. Seats still to play
        may take the trick yet.
        """
        if not isinstance(play, Play):
            raise TypeError(f"would_win takes a Play, one of view.legal_plays, not {play!r}")
        rules = self.ruleset
        trick = (*self.trick, (self.seat, play))
        trump = self.trump
        voided = rules.first_action_of_kind_only and any(done.card.id == play.card.id for _, done in self.trick)
        if play.card.id == NOTRUMP and not voided:
            trump = None
        elif play.card.id == CHANGE and play.trump is not None and not voided:
            trump = play.trump
        lead = next(
            (done.card.colour if done.card.is_coloured else done.colour for _, done in trick if _leads(done)), None
        )
        later_wins = rules.wild_tie is WildTie.LATER_WINS and not rules.wild_declares_value
        winner = trick_winner(
            trick,
            colour_code(trump),
            colour_code(lead),
            later_wins,
            rules.wild_declares_value,
        )
        return winner == self.seat

    def voids(self) -> dict[int, set[Colour]]:
        """Colours each seat has shown it holds none of this round (it did not follow them)."""
        shown: dict[int, set[Colour]] = {seat: set() for seat in range(self.players)}
        anytime = self.ruleset.action_cards_anytime
        for plays in [trick.plays for trick in self.tricks] + [self.trick]:
            lead: Colour | None = None
            for seat, play in plays:
                card = play.card
                if lead is not None:
                    # Without action_cards_anytime, any action card (a wild too) says "none of the lead".
                    if card.colour != lead and not (card.is_action and anytime):
                        shown[seat].add(lead)
                elif card.is_coloured:
                    lead = card.colour
                elif card.id == WILD:
                    lead = play.colour
        return shown


def _leads(play: Play) -> bool:
    """Whether ``play`` sets the lead colour when the trick has none yet: a coloured card, or a wild."""
    return play.card.is_coloured or play.card.id == WILD


def view_for(state: GameState, seat: int) -> SeatView:
    """What ``seat`` may see of ``state`` now: :func:`rage_sdk.visibility.seen`, typed."""
    if not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} among {state.players} players")
    numbers, to_move = seen(state, seat), state.current_player()
    return SeatView(
        seat=seat,
        players=state.players,
        ruleset=state.ruleset,
        phase=state.phase,
        round_number=numbers.round,
        cards=numbers.cards,
        dealer=numbers.dealer,
        to_move=to_move,
        hand=tuple(CARDS[card] for card in numbers.hand),
        hand_sizes=tuple(numbers.hand_sizes),
        turned=tuple(CARDS[card] for card in numbers.turned),
        trump=colour_of(numbers.trump),
        bids=tuple(None if bid < 0 else bid for bid in numbers.bids),
        trick=tuple(state.trick),
        lead=colour_of(numbers.lead),
        tricks=tuple(state.tricks),
        tricks_won=tuple(numbers.tricks_won),
        results=tuple(state.results),
        totals=tuple(numbers.totals),
        legal_actions=tuple(state.legal_actions()) if to_move == seat else (),
    )
