"""The game state: deal, bid, play, trick resolution and scoring, per ``rules.md``.

Drive a game step by step::

    state = GameState(Ruleset.of("amigo"), players=4)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.deal_seeded(seed=7)
        else:
            state.apply(random.choice(state.legal_actions()))
    state.outcome()

``legal_actions()`` and ``is_legal()`` agree; ``apply()`` checks its action and
raises :class:`IllegalActionError` naming the broken rule. ``apply()`` and the deal
return the events they caused (:mod:`rage_sdk.engine_events`), each tagged with the
seat that may see it. Nothing here hands a seat's private data to another seat:
:mod:`rage_sdk.visibility` picks what a seat sees.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from enum import Enum
from functools import cache
from typing import Final, NamedTuple, cast

from .actions import (
    BIDS,
    CHANGE_PLAYS,
    NUM_PLAY_CODES,
    PLAYS,
    WILD_COLOUR_BASE,
    WILD_COLOUR_PLAYS,
    WILD_VALUE_BASE,
    WILD_VALUE_PLAYS,
    Action,
    Bid,
    Play,
)
from .cards import (
    CARDS,
    CHANGE,
    COLOUR_NAMES,
    MINUS5,
    NOTRUMP,
    NUM_COLOURED,
    NUM_COLOURS,
    PLUS5,
    TOKENS,
    WILD,
    Card,
    Colour,
    colour_of,
)
from .compiled import mypyc_attr
from .deal import dealt_cards
from .engine_events import (
    EVERYONE,
    NO_EVENTS,
    CardPlayed,
    Events,
    RoundDealt,
    RoundScored,
    TrickWon,
    bid_events,
    bids_seen,
    prebuilt,
)
from .errors import IllegalActionError, InvalidActionError, InvalidDealError
from .rules import ChangeMode, NotrumpScope, Ruleset, Sweep, Tiebreak, WildTie

CHANCE: Final = -1
"""``current_player()`` while the next round waits for its deal."""
TERMINAL: Final = -2
"""``current_player()`` once the last round is scored."""
NO_TRUMP: Final = -1


class Phase(Enum):
    DEAL = "deal"
    BID = "bid"
    PLAY = "play"
    OVER = "over"


_ACTION_BIT: Final = {NOTRUMP: 1, CHANGE: 2, PLUS5: 4, MINUS5: 8}


class Trick(NamedTuple):
    """A finished trick: who led, each ``(seat, play)`` in order, the winner and the trump it ended with."""

    leader: int
    plays: tuple[tuple[int, Play], ...]
    winner: int
    trump: Colour | None
    """The trump the trick ended with; ``None`` for no trump (as the view's ``trump``)."""
    revealed: tuple[Card, ...] = ()
    """Cards turned up from the pile after the trick (a notrump of scope ``trick``)."""


class RoundResult(NamedTuple):
    """A scored round: everything here is public once the round is over."""

    round_number: int
    cards: int
    dealer: int
    trump: Colour | None
    """The trump colour after the round's first reveal; ``None`` for no trump."""
    bids: tuple[int, ...]
    trick_winners: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]


class RoundLog(NamedTuple):
    """Exactly enough to replay one round: the deal, the bids by seat and every play in order."""

    round_number: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    pile: tuple[int, ...]
    bids: tuple[int, ...]
    plays: tuple[tuple[int, Play], ...]


class Outcome(NamedTuple):
    """Game totals and 1-based places by seat (tied seats share a place: 1, 1, 3)."""

    totals: tuple[int, ...]
    places: tuple[int, ...]
    hits: tuple[int, ...]
    """Rounds each seat bid exactly, the ``most_hits`` tie-break."""


def trick_of(plays: list[tuple[int, Play]], winner: int, trump: int, revealed: tuple[int, ...]) -> Trick:
    """The :class:`Trick` of ``plays`` (in order), won by ``winner`` with ``trump`` (a colour code or
    ``NO_TRUMP``); ``revealed``, card ids, turned up after it."""
    cards = tuple([CARDS[card] for card in revealed]) if revealed else ()
    return Trick(plays[0][0], tuple(plays), winner, colour_of(trump), cards)


def round_result(
    round_number: int,
    cards: int,
    dealer: int,
    trump: int,
    bids: tuple[int, ...],
    tricks: list[Trick] | tuple[Trick, ...],
    tricks_won: tuple[int, ...],
    points: tuple[int, ...],
) -> RoundResult:
    """The :class:`RoundResult` of a round scored after ``tricks`` (``trump``: the colour code after its
    first reveal, or ``NO_TRUMP``)."""
    winners = tuple([trick.winner for trick in tricks])
    return RoundResult(round_number, cards, dealer, colour_of(trump), bids, winners, tricks_won, points)


def places_for(
    totals: tuple[int, ...] | list[int], hits: tuple[int, ...] | list[int], tiebreak: Tiebreak
) -> tuple[int, ...]:
    """Places by total (then by rounds bid exactly under ``most_hits``), ties sharing."""
    keys = [(total, hit if tiebreak is Tiebreak.MOST_HITS else 0) for total, hit in zip(totals, hits)]
    return tuple(1 + sum(other > mine for other in keys) for mine in keys)


def trick_winner(
    trick: list[tuple[int, Play]] | tuple[tuple[int, Play], ...],
    trump: int,
    lead: int,
    later_wins: bool,
    wild_values: bool,
) -> int:
    """The seat winning ``trick`` (``(seat, play)`` in order) with ``trump`` and ``lead`` colours.

    ``later_wins``: between two wilds of one colour the later wins (``wild_tie``, plain wilds only);
    ``wild_values``: wilds rank as their declared value (``wild_declares_value``).
    """
    best_trump = best_lead = -1
    trump_seat = lead_seat = -1
    for seat, play in trick:
        card = play.card.id
        if card < NUM_COLOURED:
            colour, rank = card >> 4, card & 15
        elif card == WILD:
            colour = play.colour  # type: ignore[assignment]
            rank = play.value if wild_values else 16  # type: ignore[assignment]
        else:
            continue
        if colour == trump:
            if rank > best_trump or (rank == best_trump and later_wins):
                best_trump, trump_seat = rank, seat
        elif colour == lead:
            if rank > best_lead or (rank == best_lead and later_wins):
                best_lead, lead_seat = rank, seat
    if trump_seat >= 0:
        return trump_seat
    if lead_seat >= 0:
        return lead_seat
    return trick[0][0]


class _Scoring(NamedTuple):
    """The scoring options of a ruleset, read once a game."""

    per_trick: int
    hit: int
    zero_hit: int
    miss: int
    double_tricks: bool
    double_round: bool
    one_card_sweeps: bool

    @staticmethod
    def of(rules: Ruleset) -> _Scoring:
        return _Scoring(
            rules.points_per_trick,
            rules.bid_hit,
            rules.bid_zero_hit,
            rules.bid_miss,
            rules.sweep is Sweep.DOUBLE_TRICKS,
            rules.sweep is Sweep.DOUBLE_ROUND,
            rules.sweep_in_one_card_round,
        )


_NO_PLAYS: Final[list[Play]] = []  # shared, never changed: the action plays of a hand without action cards
_NO_COLOURS: Final[frozenset[int]] = frozenset()  # the pile's colours before they are first asked for
_LEAD_KEY: Final = 32  # a card's key in its trick: its rank (0-16, a plain wild 16) plus one of these
_TRUMP_KEY: Final = 64


def _rank_keys(trump: int, lead: int) -> tuple[int, ...]:
    """Each play code's key in a trick of ``trump`` and ``lead`` colours, by :func:`trick_winner`'s
    order: its rank plus ``_TRUMP_KEY`` or ``_LEAD_KEY``; -1 where it cannot win (another colour,
    an action card other than a wild)."""
    keys = []
    for code in range(NUM_PLAY_CODES):
        if code < NUM_COLOURED:
            colour, rank = code >> 4, code & 15
        elif WILD_COLOUR_BASE <= code < WILD_VALUE_BASE:
            colour, rank = code - WILD_COLOUR_BASE, 16
        elif code >= WILD_VALUE_BASE:
            colour, rank = divmod(code - WILD_VALUE_BASE, 16)
        else:
            colour = rank = -1
        keys.append(rank + _TRUMP_KEY if colour == trump else rank + _LEAD_KEY if colour == lead >= 0 else -1)
    return tuple(keys)


_RANK_KEYS: Final = tuple(
    tuple(_rank_keys(trump, lead) for lead in range(NUM_COLOURS)) for trump in (*range(NUM_COLOURS), NO_TRUMP)
)
"""``_RANK_KEYS[trump][lead][code]``: :func:`_rank_keys`, looked up once a trick's lead colour is set
(``NO_TRUMP``, -1, indexes the last)."""
_ACTION_PLAYS: Final[dict[tuple[bool, bool, tuple[int, ...]], list[Play] | None]] = {}
"""The plays of the action cards held, by (wild declares value, choose-mode change, the cards)."""


@cache
def _next_seats(players: int) -> tuple[int, ...]:
    """The seat after each seat, in the order of play."""
    return tuple((seat + 1) % players for seat in range(players))


@cache
def _seated_plays(players: int) -> tuple[tuple[tuple[int, Play], ...], ...]:
    """``(seat, play)`` by seat and play code, built once: a trick holds these rather than new tuples
    (fewer objects for the garbage collector to scan)."""
    return tuple(tuple((seat, play) for play in PLAYS) for seat in range(players))


class _Table:
    """What the engine reads of a ruleset at a table of ``players``, worked out once: every state of
    that table (its copies, the sampler's worlds) shares it rather than reading the ruleset again."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        ruleset.check_players(players)
        self.rounds: Final = ruleset.rounds
        self.deck: Final = ruleset.deck
        self.bidding: Final = ruleset.bidding
        self.trick_scope: Final = ruleset.notrump_scope is NotrumpScope.TRICK
        self.choose: Final = ruleset.change_mode is ChangeMode.CHOOSE
        self.wild_values: Final = ruleset.wild_declares_value
        # Between two equal ranks the later card wins only for plain wilds under later_wins.
        self.later_wins: Final = ruleset.wild_tie is WildTie.LATER_WINS and not ruleset.wild_declares_value
        self.anytime: Final = ruleset.action_cards_anytime
        self.first_only: Final = ruleset.first_action_of_kind_only
        self.plus_minus_one: Final = ruleset.plus_minus_one
        self.wild_plays: Final = WILD_VALUE_PLAYS if ruleset.wild_declares_value else WILD_COLOUR_PLAYS
        self.scoring: Final = _Scoring.of(ruleset)
        self.next: Final = _next_seats(players)
        self.seated: Final = _seated_plays(players)
        self.told: Final = prebuilt(ruleset.bidding, players, max(ruleset.rounds))


@cache
def _table(ruleset: Ruleset, players: int) -> _Table:
    """The :class:`_Table` of ``ruleset`` at ``players`` seats (:class:`RulesetError` if they cannot sit)."""
    return _Table(ruleset, players)


def _action(action: object) -> Action:
    """``action``, a :class:`Bid` or a :class:`Play`; anything else is a caller's slip, told in one line with
    what it likely meant (a bare number for a bid, a card or its token for a play)."""
    if isinstance(action, (Bid, Play)):  # a tuple: `Bid | Play` would build a union object at every call
        return action
    given = repr(action) if action is None or isinstance(action, Card) else f"the {type(action).__name__} {action!r}"
    if type(action) is int:
        given += f" (a bid of {action} is Bid.of({action}))"
    elif isinstance(action, Card | str):
        given += f" (a play of it is Play.of({action!r}))"
    raise TypeError(f"an action is a Bid or a Play, not {given}")


@mypyc_attr(allow_interpreted_subclasses=True)  # the referee's checks and tests subclass it
class GameState:
    """One game of Rage, from the first deal to the last round's score.

    ``first_round`` (1-based position in ``ruleset.rounds``) and ``dealer`` say
    where a game starts, so that a record of some rounds of a game replays too.
    """

    __slots__: Final = (  # Final: a compiled class keeps it too, for code that lists the attributes
        "_action_plays",
        "_best",
        "_bonus",
        "_dealt_hands",
        "_dealt_pile",
        "_hand_plays",
        "_history",
        "_keys",
        "_pile",
        "_pile_colours",
        "_pile_colours_size",
        "_recount",
        "_reveal_after_trick",
        "_table",
        "_told",
        "_told_played",
        "_trick_actions",
        "_trick_bonus",
        "_winner",
        "bids",
        "bids_made",
        "cards",
        "dealer",
        "first_trump",
        "hands",
        "hits",
        "lead",
        "logs",
        "phase",
        "players",
        "results",
        "round_number",
        "ruleset",
        "to_move",
        "totals",
        "trick",
        "trick_number",
        "tricks",
        "tricks_won",
        "trump",
        "turned",
    )

    def __init__(self, ruleset: Ruleset, players: int, *, first_round: int = 1, dealer: int = 0) -> None:
        if not isinstance(ruleset, Ruleset):
            hint = f": Ruleset.of({ruleset!r})" if isinstance(ruleset, str) else ""
            raise TypeError(f"a game's ruleset is a rage_sdk.Ruleset, not {ruleset!r}{hint}")
        table = _table(ruleset, players)
        if not 1 <= first_round <= len(table.rounds):
            raise ValueError(f"first_round must be 1..{len(table.rounds)}, not {first_round}")
        if not 0 <= dealer < players:
            raise ValueError(f"dealer must be a seat 0..{players - 1}, not {dealer}")
        self.ruleset = ruleset
        self.players = players
        self._table = table
        self._history = True
        self._told_played = table.told.played
        self._dealt_hands: tuple[tuple[int, ...], ...] = ()
        self._dealt_pile: tuple[int, ...] = ()

        self.round_number = first_round
        self.dealer = dealer
        self.phase = Phase.DEAL
        self.results: list[RoundResult] = []
        self.logs: list[RoundLog] = []
        self.totals = [0] * players
        self.hits = [0] * players
        self._reset_round(0, [[] for _ in range(players)], [])
        self._keys = _RANK_KEYS[NO_TRUMP][0]  # the trick's _rank_keys, set with its lead colour

    # ----------------------------------------------------------------- the state
    def _reset_round(self, cards: int, hands: list[list[int]], pile: list[int]) -> None:
        """A round of ``cards`` cards each, dealt ``hands`` (sorted) and ``pile`` (bottom first)."""
        n = self.players
        self.cards = cards
        self.hands = hands
        hand_plays: list[list[Play]] = []
        action_plays: list[list[Play] | None] = []
        for hand in hands:  # sorted: the coloured cards, then the action cards
            hand_plays.append([PLAYS[card] for card in hand if card < NUM_COLOURED])
            action_plays.append(self._held_action_plays(hand) if hand and hand[-1] >= NUM_COLOURED else _NO_PLAYS)
        self._hand_plays = hand_plays
        self._action_plays = action_plays
        self._pile = pile
        self._pile_colours: frozenset[int] | set[int] = _NO_COLOURS
        self._pile_colours_size = -1
        self.turned: list[int] = []
        self.trump = NO_TRUMP
        self.first_trump = NO_TRUMP
        self._told = self._told_played[NO_TRUMP]
        self._reveal_after_trick = False
        self.bids: list[int | None] = [None] * n
        self.bids_made = 0
        self.to_move = (self.dealer + 1) % n
        self.trick_number = 0
        self.trick: list[tuple[int, Play]] = []
        self.lead = NO_TRUMP
        self._best = -1
        self._winner = -1
        self._recount = False
        self._trick_actions = 0
        self._trick_bonus = 0
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * n
        self._bonus = [0] * n

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` before a deal, or ``TERMINAL``."""
        phase = self.phase
        if phase is Phase.BID or phase is Phase.PLAY:
            return self.to_move
        return CHANCE if phase is Phase.DEAL else TERMINAL

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def pile_size(self) -> int:
        return len(self._pile)

    # ------------------------------------------------------------------ the deal
    def deal(self, hands: list[list[int]], pile: list[int]) -> Events:
        """The chance step: deal ``hands`` (by seat) and ``pile`` (top first), card ids; a
        :class:`RoundDealt` for each seat."""
        if self.phase is not Phase.DEAL:
            raise InvalidDealError(f"round {self.round_number}: no deal is due now ({self.phase.value})")
        cards = self._table.rounds[self.round_number - 1]
        if len(hands) != self.players:
            raise InvalidDealError(f"round {self.round_number}: {len(hands)} hands for {self.players} players")
        for seat, hand in enumerate(hands):
            if len(hand) != cards:
                raise InvalidDealError(
                    f"round {self.round_number}: seat {seat} holds {len(hand)} cards, but the round deals {cards}"
                )
        dealt = Counter(pile)
        for hand in hands:
            dealt.update(hand)
        deck = Counter(self.ruleset.deck)
        if dealt != deck:
            extra = sorted(TOKENS[c] for c in (dealt - deck).elements())
            missing = sorted(TOKENS[c] for c in (deck - dealt).elements())
            raise InvalidDealError(
                f"round {self.round_number}: hands and pile are not the {self.ruleset.preset} deck "
                f"(extra {extra}, missing {missing})"
            )
        return self._start_round(cards, hands, pile)

    def deal_unchecked(self, hands: list[list[int]], pile: list[int]) -> None:
        """The chance step without checks: deal ``hands`` (by seat) and ``pile`` (top first), as :meth:`deal`.

        The contract: a deal is due, and ``hands`` and ``pile`` hold the ruleset's deck with this
        round's cards in each hand (a deal built from the deck, as the sampler's worlds are).
        """
        self._start_round(len(hands[0]), hands, pile)

    def deal_seeded(self, seed: int, *, events: bool = True) -> Events:
        """Deal this round from ``seed`` with the documented shuffle of :mod:`rage_sdk.deal`; its events,
        none with ``events=False`` (for a caller that reads none: the deal is the same)."""
        if self.phase is not Phase.DEAL:
            raise InvalidDealError(f"round {self.round_number}: no deal is due now ({self.phase.value})")
        hands, pile = dealt_cards(self.ruleset, self.players, seed, self.round_number)
        return self._start_round(len(hands[0]), hands, pile, events)

    def _start_round(
        self, cards: int, hands: Sequence[Sequence[int]], pile: Sequence[int], events: bool = True
    ) -> Events:
        """Deal ``hands`` (by seat, as dealt) and ``pile`` (top first); ``tuple()`` of a tuple is itself."""
        self._reset_round(cards, [sorted(hand) for hand in hands], list(reversed(pile)))
        if self._history:
            self._dealt_hands = tuple([tuple(hand) for hand in hands])
            self._dealt_pile = tuple(pile)
        self.trump = self.first_trump = self._reveal()
        self._told = self._told_played[self.trump]
        self.phase = Phase.BID
        return self._dealt() if self._history and events else NO_EVENTS

    def _reveal(self) -> int:
        """Turn cards from the top of the pile until a coloured one: its colour, or ``NO_TRUMP``."""
        pile, turned = self._pile, self.turned
        while pile:
            card = pile.pop()
            turned.append(card)
            if card < NUM_COLOURED:
                return card >> 4
        return NO_TRUMP

    # ------------------------------------------------------------------ bidding
    def legal_bids(self) -> list[Bid]:
        """Every legal bid of the seat to move; none but while bidding."""
        return self._legal_bids() if self.phase is Phase.BID else []

    def _legal_bids(self) -> list[Bid]:
        cards = self.cards
        if not self._table.plus_minus_one:
            return list(BIDS[: cards + 1])
        forbidden = self._forbidden_bid()
        return [BIDS[tricks] for tricks in range(cards + 1) if tricks != forbidden]

    def _forbidden_bid(self) -> int:
        """The dealer's forbidden number under ``plus_minus_one``, else -1."""
        if not self._table.plus_minus_one or self.to_move != self.dealer:
            return -1
        return self.cards - sum(bid for bid in self.bids if bid is not None)

    def _bid_violation(self, bid: Bid) -> str | None:
        tricks, seat = bid.tricks, self.to_move
        if type(tricks) is not int:
            return f"seat {seat} bid {tricks!r}, which is not a whole number"
        if not 0 <= tricks <= self.cards:
            return f"seat {seat} bid {tricks}, but a bid must be 0..{self.cards} (cards in hand)"
        if self._table.plus_minus_one and tricks == self._forbidden_bid():
            return (
                f"dealer seat {seat} bid {tricks}, making the bids add up to {self.cards} tricks "
                "(plus_minus_one forbids it)"
            )
        return None

    def _bid(self, tricks: int) -> None:
        seat = self.to_move
        self.bids[seat] = tricks
        self.bids_made += 1
        if seat == self.dealer:
            self.phase = Phase.PLAY
            self.trick_number = 1
        self.to_move = self._table.next[seat]

    # ------------------------------------------------------------------ playing
    def legal_plays(self) -> list[Play]:
        """Every legal play of the seat to move: by card, then by declaration; none but while playing."""
        return self._legal_plays() if self.phase is Phase.PLAY else []

    def _legal_plays(self) -> list[Play]:
        seat = self.to_move
        coloured = self._hand_plays[seat]  # PLAYS[card] for the coloured cards of the hand, in order
        lead = self.lead
        if lead >= 0:
            hand = self.hands[seat]  # sorted: each colour in a run, then the action cards
            low = lead << 4
            start = bisect_left(hand, low)
            if start < len(coloured) and hand[start] < low + 16:  # must follow the lead colour
                follow = coloured[start : bisect_left(hand, low + 16, start)]
                if self._table.anytime and self._action_plays[seat] is not _NO_PLAYS:
                    follow += self._actions(seat)
                return follow
        if self._action_plays[seat] is _NO_PLAYS:
            return coloured[:]
        return coloured + self._actions(seat)

    def _actions(self, seat: int) -> list[Play]:
        """The plays of the action cards in ``seat``'s hand, a wild once per declaration."""
        plays = self._action_plays[seat]
        if plays is None:  # a choose-mode change: its colours depend on the pile and the trump
            return self._plays_of_actions(self.hands[seat], live=True) or []
        return plays

    def _held_action_plays(self, hand: list[int]) -> list[Play] | None:
        """:meth:`_plays_of_actions` of ``hand``, looked up by the action cards it holds (the lists
        are shared between states and never changed)."""
        key = (self._table.wild_values, self._table.choose, tuple(hand[bisect_left(hand, NUM_COLOURED) :]))
        plays = _ACTION_PLAYS.get(key, _NO_PLAYS)
        if plays is _NO_PLAYS:
            plays = _ACTION_PLAYS[key] = self._plays_of_actions(hand)
        return plays

    def _plays_of_actions(self, hand: list[int], live: bool = False) -> list[Play] | None:
        """The plays of the action cards of a sorted ``hand``; ``None`` if they change with the trick
        (a choose-mode change, whose colours depend on the pile) unless ``live`` asks for them now."""
        plays: list[Play] = []
        previous = -1
        for card in hand[bisect_left(hand, NUM_COLOURED) :]:
            if card != previous:  # copies of an action card are one choice
                if card == WILD:
                    plays += self._table.wild_plays
                elif card == CHANGE and self._table.choose:
                    if not live:
                        return None
                    qualifying = self._change_colours() if self._effective(CHANGE) else None
                    plays += [CHANGE_PLAYS[colour] for colour in qualifying] if qualifying else [PLAYS[CHANGE]]
                else:
                    plays.append(PLAYS[card])
                previous = card
        return plays

    def legal_actions(self) -> list[Action]:
        """The legal bids or plays of the seat to move (empty at chance or terminal)."""
        phase = self.phase
        if phase is Phase.PLAY:
            return self._legal_plays()  # type: ignore[return-value]
        if phase is Phase.BID:
            return self._legal_bids()  # type: ignore[return-value]
        return []

    def _effective(self, card: int) -> bool:
        """Whether an action card played now takes effect (``first_action_of_kind_only``)."""
        return not (self._table.first_only and self._trick_actions & _ACTION_BIT[card])

    def _change_colours(self) -> list[int]:
        """Colours a choose-mode change may name now: in the pile, other than the current trump."""
        pile = self._pile
        if self._pile_colours_size != len(pile):  # cards only ever leave the pile: its size dates the cache
            self._pile_colours = {card >> 4 for card in pile if card < NUM_COLOURED}
            self._pile_colours_size = len(pile)
        present, trump = self._pile_colours, self.trump
        return [colour for colour in range(NUM_COLOURS) if colour in present and colour != trump]

    def _play_violation(self, play: Play) -> str | None:
        seat, card = self.to_move, play.card.id
        hand = self.hands[seat]
        if card not in hand:
            return f"seat {seat} played {TOKENS[card]}, which is not in its hand"
        lead = self.lead
        # An action card's id >> 4 is 6, never a colour: one test covers "not of the lead colour".
        if lead >= 0 and card >> 4 != lead and not (card >= NUM_COLOURED and self._table.anytime):
            index = bisect_left(hand, lead << 4)
            if index < len(hand) and hand[index] >> 4 == lead:
                return (
                    f"seat {seat} played {TOKENS[card]} while holding {TOKENS[hand[index]]} of lead colour "
                    f"{COLOUR_NAMES[lead]} (must follow the lead colour)"
                )
        if card >= NUM_COLOURED or play.code != card:
            return self._declaration_violation(play)
        return None

    def _declaration_violation(self, play: Play) -> str | None:
        seat, card = self.to_move, play.card.id
        name = TOKENS[card]
        if card == WILD:
            if play.trump is not None:
                return f"seat {seat} played wild naming a trump (a wild declares a colour)"
            if play.colour is None:
                return f"seat {seat} played wild without declaring a colour"
            if self._table.wild_values:
                if play.value is None:
                    return f"seat {seat} played wild without declaring a value 0-15"
                if not 0 <= play.value <= 15:
                    return f"seat {seat} played wild declaring value {play.value} (must be 0-15)"
            elif play.value is not None:
                return f"seat {seat} played wild declaring a value, which this ruleset does not allow"
            return None
        if play.colour is not None or play.value is not None:
            return f"seat {seat} played {name} with a declaration (only a wild declares a colour)"
        if card != CHANGE:
            if play.trump is not None:
                return f"seat {seat} played {name} naming a trump (only a change does)"
            return None
        named = play.trump
        if not self._table.choose:
            if named is not None:
                return f"seat {seat} played change naming {COLOUR_NAMES[named]}, but in reveal mode it names no colour"
            return None
        if not self._effective(CHANGE):
            if named is not None:
                return (
                    f"seat {seat} played change naming {COLOUR_NAMES[named]}, but it has no effect "
                    "(not the first change of the trick) and names no colour"
                )
            return None
        qualifying = self._change_colours()
        if named is None:
            if qualifying:
                options = ", ".join(COLOUR_NAMES[colour] for colour in qualifying)
                return f"seat {seat} played change without naming a colour (it may name {options})"
            return None
        if named == self.trump:
            return f"seat {seat} played change naming the current trump {COLOUR_NAMES[named]}"
        if named not in qualifying:
            colour = COLOUR_NAMES[named]
            return f"seat {seat} played change naming {colour}, but the pile holds no {colour} card"
        return None

    def _play(self, play: Play, turned: int = -1) -> Events:
        """Take ``play`` for the seat to move: the general path (action cards, rollouts). Its events, given
        ``turned``, the cards face up before it (-1: none wanted, as in a rollout or ``events=False``)."""
        seat, card, code = self.to_move, play.card.id, play.code
        hand = self.hands[seat]
        index = hand.index(card)
        hand.pop(index)
        trick = self.trick
        trick.append(self._table.seated[seat][code])
        if card < NUM_COLOURED:
            self._hand_plays[seat].pop(index)
            self._lead_to(seat, card >> 4, code)
        else:
            self._action_plays[seat] = self._held_action_plays(hand) if hand and hand[-1] >= NUM_COLOURED else _NO_PLAYS
            if card == WILD:
                self._lead_to(seat, play.colour, code)  # type: ignore[arg-type]
            else:
                if card in (NOTRUMP, CHANGE):
                    self._recount = True  # the trump may change under the cards already played
                self._action(card, play)
        played: Events | None
        if turned < 0:
            played = None
        elif len(self.turned) == turned or not self._history:
            played = self._told[seat][code]  # prebuilt for the trump after the play (none without history)
        else:
            played = (CardPlayed(EVERYONE, seat, code, tuple(self.turned[turned:]), self.trump),)
        if len(trick) == self.players:
            return self._end_trick(played)
        self.to_move = self._table.next[seat]
        return NO_EVENTS if played is None else played

    def _lead_to(self, seat: int, colour: int, code: int) -> None:
        """Keep the trick's winner so far up to date with ``seat``'s play ``code`` of ``colour``, a
        coloured card or a wild (the first sets the lead colour), by :func:`trick_winner`'s order."""
        if self.lead < 0:
            self.lead = colour
            self._keys = _RANK_KEYS[self.trump][colour]
        key = self._keys[code]
        # Only wilds tie (coloured cards are one of each); the later wins under later_wins.
        if key > self._best or (key == self._best and self._table.later_wins and code >= NUM_COLOURED):
            self._best, self._winner = key, seat

    def _action(self, card: int, play: Play) -> None:
        """The effect of a notrump, change, plus5 or minus5 as it is played."""
        bit = _ACTION_BIT[card]
        if self._table.first_only and self._trick_actions & bit:
            return
        self._trick_actions |= bit
        if card == NOTRUMP:
            self.trump = NO_TRUMP
            self._reveal_after_trick = self._table.trick_scope
        elif card == CHANGE:
            if self._table.choose:
                if play.trump is not None:
                    self._take_from_pile(play.trump)
                    self.trump = play.trump
                    self._reveal_after_trick = False
            else:
                self.trump = self._reveal()
                if self.trump != NO_TRUMP:
                    self._reveal_after_trick = False
        else:
            self._trick_bonus += 5 if card == PLUS5 else -5
        self._told = self._told_played[self.trump]

    def _take_from_pile(self, colour: int) -> None:
        """Take the first card of ``colour`` from the top of the pile, face up."""
        pile = self._pile
        for index in range(len(pile) - 1, -1, -1):
            card = pile[index]
            if card < NUM_COLOURED and card >> 4 == colour:
                del pile[index]
                self.turned.append(card)
                return
        raise AssertionError("a change named a colour the pile does not hold")  # checked before

    def _end_trick(self, played: Events | None) -> Events:
        """Close the full trick: its winner leads the next, or the round is scored. Its events: those
        of its last play (``played``; ``None``: no events wanted), the trick won and the round scored."""
        trick, trump = self.trick, self.trump
        if self._recount or self._best < 0:  # a trump changed in the trick, or no card could win it
            winner = trick_winner(trick, trump, self.lead, self._table.later_wins, self._table.wild_values)
            self._recount = False
        else:
            winner = self._winner
        self._best = -1
        self.tricks_won[winner] += 1
        if self._trick_bonus:
            self._bonus[winner] += self._trick_bonus
            self._trick_bonus = 0
        self.trick = []
        self.lead = NO_TRUMP
        self._trick_actions = 0
        self.to_move = winner
        revealed: tuple[int, ...] = ()
        if self._reveal_after_trick:
            self._reveal_after_trick = False
            start = len(self.turned)
            self.trump = self._reveal()
            self._told = self._told_played[self.trump]
            revealed = tuple(self.turned[start:])
        if self._history:
            self.tricks.append(trick_of(trick, winner, trump, revealed))
        last = self.trick_number == self.cards
        if last:
            self._end_round()
        else:
            self.trick_number += 1
        if played is None or not self._history:
            return NO_EVENTS
        won = TrickWon(EVERYONE, winner, revealed, self.trump) if revealed else self._table.told.won[self.trump][winner]
        return (*played, won, *self._scored()) if last else (*played, won)

    def _end_round(self) -> None:
        """Score the round just played, and keep its result and log (with history)."""
        cards, won, bids, bonus = self.cards, self.tricks_won, self.bids, self._bonus
        per_trick, hit, zero_hit, miss, double_tricks, double_round, one_card_sweeps = self._table.scoring
        sweep = cards if cards > 1 or one_card_sweeps else -1  # the tricks that make a sweep count
        points = []
        for seat in range(self.players):
            tricks, bid = won[seat], bids[seat]
            trick_points = tricks * per_trick
            if tricks == sweep and double_tricks:
                trick_points *= 2
            if tricks == bid:
                bid_points = zero_hit if bid == 0 else hit
                self.hits[seat] += 1
            else:
                bid_points = miss
            score = trick_points + bonus[seat] + bid_points
            if tricks == sweep and double_round:
                score *= 2
            points.append(score)
            self.totals[seat] += score
        if self._history:
            self._log_round(tuple(bids), tuple(points))  # type: ignore[arg-type]  # every seat has bid
        self.round_number += 1
        self.dealer = self._table.next[self.dealer]
        self.phase = Phase.OVER if self.round_number > len(self._table.rounds) else Phase.DEAL

    def _log_round(self, bids: tuple[int, ...], points: tuple[int, ...]) -> None:
        """Keep the round's result and log."""
        tricks = self.tricks
        number, won = self.round_number, tuple(self.tricks_won)
        self.results.append(round_result(number, self.cards, self.dealer, self.first_trump, bids, tricks, won, points))
        plays = tuple([seated for trick in tricks for seated in trick.plays])
        self.logs.append(RoundLog(number, self.dealer, self._dealt_hands, self._dealt_pile, bids, plays))

    def _scored(self) -> Events:
        """The :class:`RoundScored` of the round just logged."""
        result = self.results[-1]
        won, totals = result.tricks_won, tuple(self.totals)
        return (RoundScored(EVERYONE, result.round_number, result.bids, won, result.points, totals),)

    # --------------------------------------------------------------- public API
    def violation(self, action: object, seat: object = None) -> str | None:
        """Why ``action`` (by ``seat``, default the seat to move) is illegal now, or ``None``.

        :raises TypeError: ``action`` is no :class:`Bid` or :class:`Play`, or ``seat`` no seat number.
        """
        return self._violation(_action(action), seat)

    def _violation(self, action: Action, seat: object) -> str | None:
        """:meth:`violation` of an ``action`` known to be a :class:`Bid` or a :class:`Play`."""
        if seat is not None and type(seat) is not int:
            raise TypeError(f"seat is a seat number, 0 to {self.players - 1}, not {seat!r}")
        phase = self.phase
        playing = phase is Phase.PLAY
        if not playing and phase is not Phase.BID:
            return "the game is over" if phase is Phase.OVER else "the round is not dealt yet"
        if seat is not None and seat != self.to_move:
            verb = "bid" if not playing else f"played {action.card.token}" if isinstance(action, Play) else "acted"
            return f"seat {seat} {verb} out of turn (it is seat {self.to_move}'s turn)"
        if playing:
            if type(action) is not Play:
                return f"seat {self.to_move} must play a card, not {action!r}"
            return self._play_violation(action)
        if type(action) is not Bid:
            return f"seat {self.to_move} must bid, not {action!r}"
        return self._bid_violation(action)

    def is_legal(self, action: object) -> bool:
        """Whether the seat to move may take ``action`` now.

        :raises TypeError: ``action`` is no :class:`Bid` or :class:`Play`.
        """
        return self.violation(action) is None

    def apply(self, action: object, seat: object = None, *, events: bool = True) -> Events:
        """Take ``action`` for the seat to move (or check that it is ``seat``'s turn); the events it caused.

        With ``events=False`` it is checked and taken the same way, and builds no events (it returns
        none), for a caller that reads none. A state copied with ``history=False`` records nothing, and
        returns no events either.

        :raises IllegalActionError: naming the rule, if the action is not legal now.
        :raises TypeError: ``action`` is no :class:`Bid` or :class:`Play`, or ``seat`` no seat number.
        """
        action = _action(action)
        reason = self._violation(action, seat)
        if reason is not None:
            phase = self.phase
            wrong_kind = (phase is Phase.PLAY and type(action) is not Play) or (
                phase is Phase.BID and type(action) is not Bid
            )
            raise (InvalidActionError if wrong_kind else IllegalActionError)(
                reason,
                round_number=self.round_number,
                trick=self.trick_number if phase is Phase.PLAY else None,
                seat=self.to_move if seat is None else cast(int, seat),
            )
        if isinstance(action, Play):
            return self._play(action, len(self.turned) if events else -1)
        mover = self.to_move
        self._bid(action.tricks)
        return self._bid_made(mover, action.tricks) if self._history and events else NO_EVENTS

    # ---------------------------------------------------------------- the events
    def _dealt(self) -> Events:
        """The round just dealt, as each seat sees it."""
        turned, trump, number = tuple(self.turned), self.trump, self.round_number
        cards, dealer = self.cards, self.dealer
        return tuple(
            RoundDealt(seat, number, cards, dealer, tuple(hand), turned, trump) for seat, hand in enumerate(self.hands)
        )

    def _bid_made(self, seat: int, bid: int) -> Events:
        """The events of ``seat``'s bid, just taken."""
        if self.phase is Phase.BID:
            return self._table.told.bids[seat][bid]
        return bid_events(self._table.bidding, seat, bid, self.bids, True)

    def apply_unchecked(self, action: Action) -> None:
        """Take ``action`` without checking it: the rollout path.

        The contract: ``action`` is one of :meth:`legal_actions` right now. Nothing is checked, so
        anything else leaves the state corrupt; the referee's path is :meth:`apply`.
        """
        if self.phase is Phase.PLAY:
            self._play(action)  # type: ignore[arg-type]
        else:
            self._bid(action.tricks)  # type: ignore[union-attr]

    def copy(self, *, history: bool = True) -> GameState:
        """An independent copy of the state.

        With ``history=False`` the copy is for rollouts: it keeps no record of finished tricks
        and rounds (``tricks``, ``results`` and ``logs`` start empty and stay so) and no dealt
        hands for a game record; play, scoring, ``totals`` and ``hits`` go on as ever.
        """
        twin = GameState(self.ruleset, self.players)  # then every attribute is set from this state's:
        # immutable values, and containers the engine replaces rather than changes
        twin._best = self._best
        twin._dealt_hands = self._dealt_hands
        twin._dealt_pile = self._dealt_pile
        twin._keys = self._keys
        twin._pile_colours = self._pile_colours
        twin._pile_colours_size = self._pile_colours_size
        twin._recount = self._recount
        twin._reveal_after_trick = self._reveal_after_trick
        twin._told = self._told
        twin._table = self._table
        twin._told_played = self._told_played
        twin._trick_actions = self._trick_actions
        twin._trick_bonus = self._trick_bonus
        twin._winner = self._winner
        twin.bids_made = self.bids_made
        twin.cards = self.cards
        twin.dealer = self.dealer
        twin.first_trump = self.first_trump
        twin.lead = self.lead
        twin.phase = self.phase
        twin.players = self.players
        twin.round_number = self.round_number
        twin.ruleset = self.ruleset
        twin.to_move = self.to_move
        twin.trick_number = self.trick_number
        twin.trump = self.trump
        twin.hands = [hand[:] for hand in self.hands]
        twin._hand_plays = [plays[:] for plays in self._hand_plays]
        twin._action_plays = self._action_plays[:]  # each entry is replaced, never changed in place
        twin._pile = self._pile[:]
        twin.turned = self.turned[:]
        twin.bids = self.bids[:]
        twin.trick = self.trick[:]
        twin.tricks_won = self.tricks_won[:]
        twin._bonus = self._bonus[:]
        twin.totals = self.totals[:]
        twin.hits = self.hits[:]
        twin._history = history
        if history:
            twin.tricks, twin.results, twin.logs = self.tricks[:], self.results[:], self.logs[:]
        else:
            twin.tricks, twin.results, twin.logs = [], [], []
            twin._dealt_hands, twin._dealt_pile = (), ()
            twin._told_played = _silent(self.players)  # a play's events, looked up, are none
            twin._told = twin._told_played[self.trump]
        return twin

    def outcome(self) -> Outcome:
        """Totals and places so far (final once the game is terminal)."""
        return Outcome(tuple(self.totals), places_for(self.totals, self.hits, self.ruleset.tiebreak), tuple(self.hits))

    def visible_bids(self, seat: int) -> list[int | None]:
        """The bids ``seat`` may see now, by seat (``None`` where it may not), per ``bidding``."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} among {self.players} players")
        return bids_seen(self.ruleset.bidding, self.bids, seat, self.phase is not Phase.BID)

    def pile_cards(self) -> list[int]:
        """The face-down pile, top first. Referee-side only: never part of a seat's view."""
        return self._pile[::-1]


@cache
def _silent(players: int) -> tuple[tuple[tuple[Events, ...], ...], ...]:
    """A table shaped like the prebuilt ``played`` events whose every entry is no event: a rollout's."""
    return (((NO_EVENTS,) * NUM_PLAY_CODES,) * players,) * (NUM_COLOURS + 1)
