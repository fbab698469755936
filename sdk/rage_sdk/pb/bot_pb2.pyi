from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_BID: _ClassVar[DecisionKind]
    DECISION_KIND_PLAY: _ClassVar[DecisionKind]
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_BID: DecisionKind
DECISION_KIND_PLAY: DecisionKind

class HelloRequest(_message.Message):
    __slots__ = ("protocol_version", "referee")
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    REFEREE_FIELD_NUMBER: _ClassVar[int]
    protocol_version: int
    referee: str
    def __init__(self, protocol_version: _Optional[int] = ..., referee: _Optional[str] = ...) -> None: ...

class HelloReply(_message.Message):
    __slots__ = ("name", "version", "protocol_version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    protocol_version: int
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ..., protocol_version: _Optional[int] = ...) -> None: ...

class RefereeBatch(_message.Message):
    __slots__ = ("messages",)
    MESSAGES_FIELD_NUMBER: _ClassVar[int]
    messages: _containers.RepeatedCompositeFieldContainer[GameMessage]
    def __init__(self, messages: _Optional[_Iterable[_Union[GameMessage, _Mapping]]] = ...) -> None: ...

class BotBatch(_message.Message):
    __slots__ = ("decisions",)
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    decisions: _containers.RepeatedCompositeFieldContainer[Decision]
    def __init__(self, decisions: _Optional[_Iterable[_Union[Decision, _Mapping]]] = ...) -> None: ...

class GameMessage(_message.Message):
    __slots__ = ("game", "start", "events", "request", "end")
    GAME_FIELD_NUMBER: _ClassVar[int]
    START_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    game: int
    start: GameStart
    events: _containers.RepeatedCompositeFieldContainer[Event]
    request: DecisionRequest
    end: GameEnd
    def __init__(self, game: _Optional[int] = ..., start: _Optional[_Union[GameStart, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., request: _Optional[_Union[DecisionRequest, _Mapping]] = ..., end: _Optional[_Union[GameEnd, _Mapping]] = ...) -> None: ...

class GameStart(_message.Message):
    __slots__ = ("seat", "players", "ruleset", "first_round", "decision_ms", "bank_ms", "index")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    FIRST_ROUND_FIELD_NUMBER: _ClassVar[int]
    DECISION_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    players: _containers.RepeatedScalarFieldContainer[str]
    ruleset: str
    first_round: int
    decision_ms: int
    bank_ms: int
    index: int
    def __init__(self, seat: _Optional[int] = ..., players: _Optional[_Iterable[str]] = ..., ruleset: _Optional[str] = ..., first_round: _Optional[int] = ..., decision_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ..., index: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("round_started", "bid_made", "bids_shown", "card_played", "trick_won", "round_scored")
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    BID_MADE_FIELD_NUMBER: _ClassVar[int]
    BIDS_SHOWN_FIELD_NUMBER: _ClassVar[int]
    CARD_PLAYED_FIELD_NUMBER: _ClassVar[int]
    TRICK_WON_FIELD_NUMBER: _ClassVar[int]
    ROUND_SCORED_FIELD_NUMBER: _ClassVar[int]
    round_started: RoundStarted
    bid_made: BidMade
    bids_shown: BidsShown
    card_played: CardPlayed
    trick_won: TrickWon
    round_scored: RoundScored
    def __init__(self, round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., bid_made: _Optional[_Union[BidMade, _Mapping]] = ..., bids_shown: _Optional[_Union[BidsShown, _Mapping]] = ..., card_played: _Optional[_Union[CardPlayed, _Mapping]] = ..., trick_won: _Optional[_Union[TrickWon, _Mapping]] = ..., round_scored: _Optional[_Union[RoundScored, _Mapping]] = ...) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round", "cards", "dealer", "hand", "turned", "trump")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    round: int
    cards: int
    dealer: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    turned: _containers.RepeatedScalarFieldContainer[int]
    trump: int
    def __init__(self, round: _Optional[int] = ..., cards: _Optional[int] = ..., dealer: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., turned: _Optional[_Iterable[int]] = ..., trump: _Optional[int] = ...) -> None: ...

class BidMade(_message.Message):
    __slots__ = ("seat", "bid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bid: int
    def __init__(self, seat: _Optional[int] = ..., bid: _Optional[int] = ...) -> None: ...

class BidsShown(_message.Message):
    __slots__ = ("bids",)
    BIDS_FIELD_NUMBER: _ClassVar[int]
    bids: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, bids: _Optional[_Iterable[int]] = ...) -> None: ...

class CardPlayed(_message.Message):
    __slots__ = ("seat", "play", "turned", "trump")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLAY_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    play: int
    turned: _containers.RepeatedScalarFieldContainer[int]
    trump: int
    def __init__(self, seat: _Optional[int] = ..., play: _Optional[int] = ..., turned: _Optional[_Iterable[int]] = ..., trump: _Optional[int] = ...) -> None: ...

class TrickWon(_message.Message):
    __slots__ = ("winner", "turned", "trump")
    WINNER_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    winner: int
    turned: _containers.RepeatedScalarFieldContainer[int]
    trump: int
    def __init__(self, winner: _Optional[int] = ..., turned: _Optional[_Iterable[int]] = ..., trump: _Optional[int] = ...) -> None: ...

class RoundScored(_message.Message):
    __slots__ = ("round", "bids", "tricks_won", "points", "totals")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    round: int
    bids: _containers.RepeatedScalarFieldContainer[int]
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    points: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., bids: _Optional[_Iterable[int]] = ..., tricks_won: _Optional[_Iterable[int]] = ..., points: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("seq", "kind", "view", "legal", "time_ms", "bank_ms")
    SEQ_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    LEGAL_FIELD_NUMBER: _ClassVar[int]
    TIME_MS_FIELD_NUMBER: _ClassVar[int]
    BANK_MS_FIELD_NUMBER: _ClassVar[int]
    seq: int
    kind: DecisionKind
    view: View
    legal: _containers.RepeatedScalarFieldContainer[int]
    time_ms: int
    bank_ms: int
    def __init__(self, seq: _Optional[int] = ..., kind: _Optional[_Union[DecisionKind, str]] = ..., view: _Optional[_Union[View, _Mapping]] = ..., legal: _Optional[_Iterable[int]] = ..., time_ms: _Optional[int] = ..., bank_ms: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("seat", "round", "cards", "dealer", "trump", "hand", "hand_sizes", "turned", "bids", "trick", "lead", "trick_plays", "trick_leader", "tricks_won", "totals")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZES_FIELD_NUMBER: _ClassVar[int]
    TURNED_FIELD_NUMBER: _ClassVar[int]
    BIDS_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    LEAD_FIELD_NUMBER: _ClassVar[int]
    TRICK_PLAYS_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICKS_WON_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    round: int
    cards: int
    dealer: int
    trump: int
    hand: _containers.RepeatedScalarFieldContainer[int]
    hand_sizes: _containers.RepeatedScalarFieldContainer[int]
    turned: _containers.RepeatedScalarFieldContainer[int]
    bids: _containers.RepeatedScalarFieldContainer[int]
    trick: int
    lead: int
    trick_plays: _containers.RepeatedScalarFieldContainer[int]
    trick_leader: int
    tricks_won: _containers.RepeatedScalarFieldContainer[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., round: _Optional[int] = ..., cards: _Optional[int] = ..., dealer: _Optional[int] = ..., trump: _Optional[int] = ..., hand: _Optional[_Iterable[int]] = ..., hand_sizes: _Optional[_Iterable[int]] = ..., turned: _Optional[_Iterable[int]] = ..., bids: _Optional[_Iterable[int]] = ..., trick: _Optional[int] = ..., lead: _Optional[int] = ..., trick_plays: _Optional[_Iterable[int]] = ..., trick_leader: _Optional[int] = ..., tricks_won: _Optional[_Iterable[int]] = ..., totals: _Optional[_Iterable[int]] = ...) -> None: ...

class Decision(_message.Message):
    __slots__ = ("game", "seq", "action", "error")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEQ_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    game: int
    seq: int
    action: int
    error: str
    def __init__(self, game: _Optional[int] = ..., seq: _Optional[int] = ..., action: _Optional[int] = ..., error: _Optional[str] = ...) -> None: ...

class GameEnd(_message.Message):
    __slots__ = ("totals", "places", "faults")
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    totals: _containers.RepeatedScalarFieldContainer[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    faults: _containers.RepeatedCompositeFieldContainer[Fault]
    def __init__(self, totals: _Optional[_Iterable[int]] = ..., places: _Optional[_Iterable[int]] = ..., faults: _Optional[_Iterable[_Union[Fault, _Mapping]]] = ...) -> None: ...

class Fault(_message.Message):
    __slots__ = ("kind", "round", "trick", "detail")
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    kind: str
    round: int
    trick: int
    detail: str
    def __init__(self, kind: _Optional[str] = ..., round: _Optional[int] = ..., trick: _Optional[int] = ..., detail: _Optional[str] = ...) -> None: ...
