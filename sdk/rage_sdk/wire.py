"""Between the engine's values and the protocol's messages (``proto/rage/v1/bot.proto``).

Cards travel as card ids, plays as play codes and bids as numbers: the encodings of
:mod:`rage_sdk.cards` and :mod:`rage_sdk.actions`, documented in the proto. The one codec: for
each message kind the referee's encoder and the bot's decoder, side by side.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, cast

from . import engine_events as engine
from .actions import BIDS, NUM_PLAY_CODES, PLAYS, Action, Bid, Play
from .cards import CARDS, COLOURS_OR_NONE, WILD, Card, colour_of
from .events import (
    BidMade,
    BidsShown,
    CardPlayed,
    Event,
    FaultNote,
    GameInfo,
    GameOver,
    RoundScored,
    RoundStarted,
    TrickWon,
)
from .history import GameHistory, Snapshot
from .pb import bot_pb2 as pb
from .rules import Ruleset
from .state import Phase
from .view import SeatView
from .visibility import Seen

PROTOCOL_VERSION = 1
BID = pb.DECISION_KIND_BID
PLAY = pb.DECISION_KIND_PLAY
MAX_ACTION = 2**32 - 1
"""The largest number a decision's ``action`` (a ``uint32``) carries: no negative one travels."""


def cards_of(ids: Iterable[int]) -> tuple[Card, ...]:
    return tuple(map(CARDS.__getitem__, ids))


# ------------------------------------------------------- decisions
def action_code(action: Action) -> int:
    """The number a :class:`Bid` or legal :class:`Play` travels as."""
    return action.tricks if isinstance(action, Bid) else action.code


def action_of(kind: int, code: int) -> Action:
    """The action a decision's number stands for; :class:`ValueError` if it stands for none."""
    if kind == BID:  # any number of tricks: more than the hand holds is the rules' to refuse
        if code < 0:
            raise ValueError(f"bid {code} is no number of tricks")
        return Bid.of(code)
    if not 0 <= code < NUM_PLAY_CODES or code == WILD:
        raise ValueError(f"play code {code} is not a play (codes are 0-95 and 97-{NUM_PLAY_CODES - 1})")
    return PLAYS[code]


# -------------------------------------------------- a game's start
def game_start_message(info: GameInfo) -> pb.GameStart:
    return pb.GameStart(
        seat=info.seat,
        players=list(info.players),
        ruleset=json.dumps(info.ruleset.model_dump(mode="json")),
        first_round=info.first_round,
        decision_ms=info.decision_ms,
        bank_ms=info.bank_ms,
        index=info.index,
    )


def game_info_of(game: int, start: pb.GameStart) -> GameInfo:
    return GameInfo(
        game=game,
        seat=start.seat,
        players=tuple(start.players),
        ruleset=Ruleset.model_validate(json.loads(start.ruleset)),
        first_round=start.first_round or 1,
        decision_ms=start.decision_ms,
        bank_ms=start.bank_ms,
        index=start.index,
    )


# ---------------------------------------------------------- events
def _dealt(e: engine.RoundDealt) -> pb.Event:
    started = {"round": e.round_number, "cards": e.cards, "dealer": e.dealer, "hand": e.hand, "turned": e.turned}
    return pb.Event(round_started=started | {"trump": e.trump})


def _scored(e: engine.RoundScored) -> pb.Event:
    scored = {"round": e.round_number, "bids": e.bids, "tricks_won": e.tricks_won, "points": e.points}
    return pb.Event(round_scored=scored | {"totals": e.totals})


# Sub-messages as dicts: built inside the Event rather than copied into it.
_ENCODE: dict[type, Callable[[Any], pb.Event]] = {
    engine.RoundDealt: _dealt,
    engine.BidMade: lambda e: pb.Event(bid_made={"seat": e.seat, "bid": e.bid}),
    engine.BidsShown: lambda e: pb.Event(bids_shown={"bids": e.bids}),
    engine.CardPlayed: lambda e: pb.Event(
        card_played={"seat": e.seat, "play": e.play, "turned": e.turned, "trump": e.trump}
    ),
    engine.TrickWon: lambda e: pb.Event(trick_won={"winner": e.winner, "turned": e.turned, "trump": e.trump}),
    engine.RoundScored: _scored,
}


@lru_cache(maxsize=4096, typed=True)
def event_bytes(event: engine.EngineEvent) -> bytes:
    """An engine event as the ``Event`` message it travels as, encoded (the commonest are the same
    prebuilt events again and again, so their bytes are kept)."""
    encoded: bytes = _ENCODE[type(event)](event).SerializeToString()
    return encoded


def event_of(message: pb.Event) -> Event:
    kind = message.WhichOneof("kind")
    if kind == "round_started":
        m = message.round_started
        return RoundStarted(m.round, m.cards, m.dealer, cards_of(m.hand), cards_of(m.turned), colour_of(m.trump))
    if kind == "bid_made":
        return BidMade(message.bid_made.seat, message.bid_made.bid)
    if kind == "bids_shown":
        return BidsShown(tuple(message.bids_shown.bids))
    if kind == "card_played":
        c = message.card_played
        return CardPlayed(c.seat, PLAYS[c.play], cards_of(c.turned), colour_of(c.trump))
    if kind == "trick_won":
        t = message.trick_won
        return TrickWon(t.winner, cards_of(t.turned), colour_of(t.trump))
    if kind == "round_scored":
        r = message.round_scored
        return RoundScored(r.round, tuple(r.bids), tuple(r.tricks_won), tuple(r.points), tuple(r.totals))
    raise ValueError(f"unknown event {kind!r}")


# ---------------------------------------------------- a game's end
def game_end_message(over: GameOver) -> pb.GameEnd:
    return pb.GameEnd(
        totals=list(over.totals),
        places=list(over.places),
        faults=[
            pb.Fault(kind=fault.kind, round=fault.round_number, trick=fault.trick, detail=fault.detail)
            for fault in over.faults
        ],
    )


def game_over_of(message: pb.GameEnd) -> GameOver:
    return GameOver(
        tuple(message.totals),
        tuple(message.places),
        tuple(FaultNote(f.kind, f.round, f.trick, f.detail) for f in message.faults),
    )


# ----------------------------------------------------------- views
def view_message(seen: Seen) -> dict[str, Any]:
    """The fields of the ``View`` a decision request carries: what :func:`rage_sdk.visibility.seen` gives.

    The finished tricks and rounds travel as events instead. A dict, so that the referee's
    ``DecisionRequest`` builds its ``View`` in place rather than copying one in.
    """
    return seen._asdict()


class _RequestView(SeatView):
    """A :class:`SeatView` read off a decision request, its sequences decoded when first read.

    Most bots read few of them (a random bot only the legal actions), and decoding them all cost
    more than the rest of a decision. It keeps a copy of the request's ``View`` (not the request,
    which would keep its whole batch alive), so a view kept and read later still shows its own
    moment; its finished tricks and rounds come from the game's :class:`GameHistory` the same way.
    Equal to a :class:`SeatView` with the same fields.
    """

    __slots__ = ("__weakref__", "_history", "_moment", "_view")
    _view: pb.View
    _history: GameHistory | None
    _moment: int

    def __getattr__(self, name: str) -> Any:  # only called for a field not decoded yet
        if name in _FROM_HISTORY and self._history is not None:
            self._history.read(self._moment)  # gives this view its history
            if self._history is None:
                return getattr(self, name)
        decode = _DECODE.get(name)
        if decode is None:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        value = decode(self._view, self.players)
        setattr(self, name, value)
        return value

    # A request's legal actions are all bids or all plays: the phase says which, no filter needed.
    @property
    def legal_plays(self) -> tuple[Play, ...]:
        return () if self.phase is Phase.BID else cast(tuple[Play, ...], self.legal_actions)

    @property
    def legal_bids(self) -> tuple[int, ...]:
        return tuple([cast(Bid, bid).tricks for bid in self.legal_actions]) if self.phase is Phase.BID else ()

    def give_history(self, history: Snapshot) -> None:
        self.results, self.tricks = history
        self._history = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SeatView):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in _FIELDS)

    def __reduce__(self) -> tuple[type[SeatView], tuple[Any, ...]]:
        """A copy or a pickle is a plain :class:`SeatView`, every field read."""
        return SeatView, tuple(getattr(self, name) for name in _FIELDS)

    __hash__ = None  # type: ignore[assignment]


def _trick(v: pb.View, players: int) -> tuple[tuple[int, Play], ...]:
    leader = v.trick_leader
    return tuple([((leader + k) % players, PLAYS[code]) for k, code in enumerate(v.trick_plays)])


_DECODE: dict[str, Callable[[pb.View, int], Any]] = {
    "hand": lambda v, _: cards_of(v.hand),
    "hand_sizes": lambda v, _: tuple(v.hand_sizes),
    "turned": lambda v, _: cards_of(v.turned),
    "bids": lambda v, _: tuple([None if bid < 0 else bid for bid in v.bids]),
    "trick": _trick,
    "tricks_won": lambda v, _: tuple(v.tricks_won),
    "totals": lambda v, _: tuple(v.totals),
}
_FROM_HISTORY = frozenset({"tricks", "results"})
_FIELDS = tuple(field.name for field in dataclasses.fields(SeatView))


def view_of(request: pb.DecisionRequest, info: GameInfo, history: GameHistory) -> SeatView:
    """The :class:`SeatView` of a decision request, with the finished rounds and tricks of ``history``.

    The legal actions are checked here; the hand, the bids, the trick, the history and the other
    sequences are decoded when the bot first reads them.
    """
    v = request.view
    bidding = request.kind == BID
    try:  # the referee's own list: a lookup, not a check
        table: tuple[Action, ...] = BIDS if bidding else PLAYS
        legal = tuple(map(table.__getitem__, request.legal))
    except IndexError:
        raise ValueError(f"legal actions out of range: {list(request.legal)}") from None
    view = _RequestView.__new__(_RequestView)
    view._view = pb.View()
    view._view.CopyFrom(v)  # alone: the request's own message would keep its whole batch alive
    view.seat = view.to_move = v.seat
    view.players = len(info.players)
    view.ruleset = info.ruleset
    view.phase = Phase.BID if bidding else Phase.PLAY
    view.round_number = v.round
    view.cards = v.cards
    view.dealer = v.dealer
    view.trump = COLOURS_OR_NONE[v.trump]
    view.lead = COLOURS_OR_NONE[v.lead]
    view.legal_actions = legal
    view._history = history
    view._moment = history.wait(view)
    return view
