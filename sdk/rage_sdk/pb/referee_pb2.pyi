from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BuildState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BUILD_STATE_UNSPECIFIED: _ClassVar[BuildState]
    BUILD_STATE_OK: _ClassVar[BuildState]
    BUILD_STATE_FAILED: _ClassVar[BuildState]

class LeagueStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LEAGUE_STATUS_UNSPECIFIED: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_CREATED: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_RUNNING: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_PAUSED: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_FINISHED: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_CANCELLED: _ClassVar[LeagueStatus]
    LEAGUE_STATUS_FAILED: _ClassVar[LeagueStatus]
BUILD_STATE_UNSPECIFIED: BuildState
BUILD_STATE_OK: BuildState
BUILD_STATE_FAILED: BuildState
LEAGUE_STATUS_UNSPECIFIED: LeagueStatus
LEAGUE_STATUS_CREATED: LeagueStatus
LEAGUE_STATUS_RUNNING: LeagueStatus
LEAGUE_STATUS_PAUSED: LeagueStatus
LEAGUE_STATUS_FINISHED: LeagueStatus
LEAGUE_STATUS_CANCELLED: LeagueStatus
LEAGUE_STATUS_FAILED: LeagueStatus

class RegisterBotRequest(_message.Message):
    __slots__ = ("name", "address", "owner")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    name: str
    address: str
    owner: str
    def __init__(self, name: _Optional[str] = ..., address: _Optional[str] = ..., owner: _Optional[str] = ...) -> None: ...

class RegisterBotReply(_message.Message):
    __slots__ = ("bot", "token")
    BOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    token: str
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class UpdateBotRequest(_message.Message):
    __slots__ = ("name", "address")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    name: str
    address: str
    def __init__(self, name: _Optional[str] = ..., address: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListBotsReply(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("name", "address", "owner", "registered_unix", "version", "entrant")
    NAME_FIELD_NUMBER: _ClassVar[int]
    ADDRESS_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_UNIX_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    name: str
    address: str
    owner: str
    registered_unix: int
    version: str
    entrant: str
    def __init__(self, name: _Optional[str] = ..., address: _Optional[str] = ..., owner: _Optional[str] = ..., registered_unix: _Optional[int] = ..., version: _Optional[str] = ..., entrant: _Optional[str] = ...) -> None: ...

class SubmitBotChunk(_message.Message):
    __slots__ = ("name", "format", "owner", "data")
    NAME_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    name: str
    format: str
    owner: str
    data: bytes
    def __init__(self, name: _Optional[str] = ..., format: _Optional[str] = ..., owner: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class SubmitBotReply(_message.Message):
    __slots__ = ("bot", "version", "token")
    BOT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    version: VersionInfo
    token: str
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ..., version: _Optional[_Union[VersionInfo, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class VersionInfo(_message.Message):
    __slots__ = ("version", "submitted_unix", "bytes", "build", "build_detail", "build_log", "build_seconds", "current")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SUBMITTED_UNIX_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    BUILD_FIELD_NUMBER: _ClassVar[int]
    BUILD_DETAIL_FIELD_NUMBER: _ClassVar[int]
    BUILD_LOG_FIELD_NUMBER: _ClassVar[int]
    BUILD_SECONDS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    version: str
    submitted_unix: int
    bytes: int
    build: BuildState
    build_detail: str
    build_log: str
    build_seconds: float
    current: bool
    def __init__(self, version: _Optional[str] = ..., submitted_unix: _Optional[int] = ..., bytes: _Optional[int] = ..., build: _Optional[_Union[BuildState, str]] = ..., build_detail: _Optional[str] = ..., build_log: _Optional[str] = ..., build_seconds: _Optional[float] = ..., current: _Optional[bool] = ...) -> None: ...

class ListVersionsRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class ListVersionsReply(_message.Message):
    __slots__ = ("versions", "logs_withheld")
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    LOGS_WITHHELD_FIELD_NUMBER: _ClassVar[int]
    versions: _containers.RepeatedCompositeFieldContainer[VersionInfo]
    logs_withheld: bool
    def __init__(self, versions: _Optional[_Iterable[_Union[VersionInfo, _Mapping]]] = ..., logs_withheld: _Optional[bool] = ...) -> None: ...

class DeleteVersionRequest(_message.Message):
    __slots__ = ("name", "version")
    NAME_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    name: str
    version: str
    def __init__(self, name: _Optional[str] = ..., version: _Optional[str] = ...) -> None: ...

class AddEntrantRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class AddEntrantReply(_message.Message):
    __slots__ = ("entrant", "token")
    ENTRANT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    entrant: EntrantInfo
    token: str
    def __init__(self, entrant: _Optional[_Union[EntrantInfo, _Mapping]] = ..., token: _Optional[str] = ...) -> None: ...

class ListEntrantsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListEntrantsReply(_message.Message):
    __slots__ = ("entrants",)
    ENTRANTS_FIELD_NUMBER: _ClassVar[int]
    entrants: _containers.RepeatedCompositeFieldContainer[EntrantInfo]
    def __init__(self, entrants: _Optional[_Iterable[_Union[EntrantInfo, _Mapping]]] = ...) -> None: ...

class EntrantRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class EntrantInfo(_message.Message):
    __slots__ = ("name", "disabled", "bots", "versions", "bytes", "added_unix")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    BYTES_FIELD_NUMBER: _ClassVar[int]
    ADDED_UNIX_FIELD_NUMBER: _ClassVar[int]
    name: str
    disabled: bool
    bots: int
    versions: int
    bytes: int
    added_unix: int
    def __init__(self, name: _Optional[str] = ..., disabled: _Optional[bool] = ..., bots: _Optional[int] = ..., versions: _Optional[int] = ..., bytes: _Optional[int] = ..., added_unix: _Optional[int] = ...) -> None: ...

class CreateLeagueRequest(_message.Message):
    __slots__ = ("definition", "name")
    DEFINITION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    definition: str
    name: str
    def __init__(self, definition: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class LeagueRequest(_message.Message):
    __slots__ = ("league",)
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    league: str
    def __init__(self, league: _Optional[str] = ...) -> None: ...

class LeagueInfo(_message.Message):
    __slots__ = ("name", "status", "bots", "games_total", "games_done", "ruleset", "players", "deal_commitment", "reason", "sandbox", "versions", "memory_notice", "ladder", "final_commitment")
    class VersionsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    NAME_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    GAMES_DONE_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    DEAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    SANDBOX_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    MEMORY_NOTICE_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    FINAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    name: str
    status: LeagueStatus
    bots: _containers.RepeatedScalarFieldContainer[str]
    games_total: int
    games_done: int
    ruleset: str
    players: int
    deal_commitment: str
    reason: str
    sandbox: str
    versions: _containers.ScalarMap[str, str]
    memory_notice: str
    ladder: bool
    final_commitment: str
    def __init__(self, name: _Optional[str] = ..., status: _Optional[_Union[LeagueStatus, str]] = ..., bots: _Optional[_Iterable[str]] = ..., games_total: _Optional[int] = ..., games_done: _Optional[int] = ..., ruleset: _Optional[str] = ..., players: _Optional[int] = ..., deal_commitment: _Optional[str] = ..., reason: _Optional[str] = ..., sandbox: _Optional[str] = ..., versions: _Optional[_Mapping[str, str]] = ..., memory_notice: _Optional[str] = ..., ladder: _Optional[bool] = ..., final_commitment: _Optional[str] = ...) -> None: ...

class ListLeaguesRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListLeaguesReply(_message.Message):
    __slots__ = ("leagues",)
    LEAGUES_FIELD_NUMBER: _ClassVar[int]
    leagues: _containers.RepeatedCompositeFieldContainer[LeagueInfo]
    def __init__(self, leagues: _Optional[_Iterable[_Union[LeagueInfo, _Mapping]]] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("league", "games", "intervals", "rows", "deal_commitment", "pairs", "ladder", "final")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    INTERVALS_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    DEAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    PAIRS_FIELD_NUMBER: _ClassVar[int]
    LADDER_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    league: str
    games: int
    intervals: bool
    rows: _containers.RepeatedCompositeFieldContainer[StandingsRow]
    deal_commitment: str
    pairs: _containers.RepeatedCompositeFieldContainer[StandingsPair]
    ladder: Ladder
    final: Ladder
    def __init__(self, league: _Optional[str] = ..., games: _Optional[int] = ..., intervals: _Optional[bool] = ..., rows: _Optional[_Iterable[_Union[StandingsRow, _Mapping]]] = ..., deal_commitment: _Optional[str] = ..., pairs: _Optional[_Iterable[_Union[StandingsPair, _Mapping]]] = ..., ladder: _Optional[_Union[Ladder, _Mapping]] = ..., final: _Optional[_Union[Ladder, _Mapping]] = ...) -> None: ...

class Ladder(_message.Message):
    __slots__ = ("league", "sets", "games", "rows", "final", "deal_commitment")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    ROWS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    DEAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    league: str
    sets: int
    games: int
    rows: _containers.RepeatedCompositeFieldContainer[LadderRow]
    final: bool
    deal_commitment: str
    def __init__(self, league: _Optional[str] = ..., sets: _Optional[int] = ..., games: _Optional[int] = ..., rows: _Optional[_Iterable[_Union[LadderRow, _Mapping]]] = ..., final: _Optional[bool] = ..., deal_commitment: _Optional[str] = ...) -> None: ...

class LadderRow(_message.Message):
    __slots__ = ("rank", "bot", "owner", "version", "mu", "sigma", "rating", "sets", "games", "last_game_unix", "status", "separated", "difference")
    RANK_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    LAST_GAME_UNIX_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    SEPARATED_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    rank: int
    bot: str
    owner: str
    version: str
    mu: float
    sigma: float
    rating: float
    sets: int
    games: int
    last_game_unix: int
    status: str
    separated: bool
    difference: float
    def __init__(self, rank: _Optional[int] = ..., bot: _Optional[str] = ..., owner: _Optional[str] = ..., version: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., rating: _Optional[float] = ..., sets: _Optional[int] = ..., games: _Optional[int] = ..., last_game_unix: _Optional[int] = ..., status: _Optional[str] = ..., separated: _Optional[bool] = ..., difference: _Optional[float] = ...) -> None: ...

class BundleFile(_message.Message):
    __slots__ = ("path", "data")
    PATH_FIELD_NUMBER: _ClassVar[int]
    DATA_FIELD_NUMBER: _ClassVar[int]
    path: str
    data: bytes
    def __init__(self, path: _Optional[str] = ..., data: _Optional[bytes] = ...) -> None: ...

class FinalizeRequest(_message.Message):
    __slots__ = ("league", "top", "max_games")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    TOP_FIELD_NUMBER: _ClassVar[int]
    MAX_GAMES_FIELD_NUMBER: _ClassVar[int]
    league: str
    top: int
    max_games: int
    def __init__(self, league: _Optional[str] = ..., top: _Optional[int] = ..., max_games: _Optional[int] = ...) -> None: ...

class StandingsPair(_message.Message):
    __slots__ = ("a", "b", "sets", "difference", "low", "high", "los", "p", "low_corrected", "high_corrected", "p_corrected", "separated")
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    SETS_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    LOS_FIELD_NUMBER: _ClassVar[int]
    P_FIELD_NUMBER: _ClassVar[int]
    LOW_CORRECTED_FIELD_NUMBER: _ClassVar[int]
    HIGH_CORRECTED_FIELD_NUMBER: _ClassVar[int]
    P_CORRECTED_FIELD_NUMBER: _ClassVar[int]
    SEPARATED_FIELD_NUMBER: _ClassVar[int]
    a: str
    b: str
    sets: int
    difference: float
    low: float
    high: float
    los: float
    p: float
    low_corrected: float
    high_corrected: float
    p_corrected: float
    separated: bool
    def __init__(self, a: _Optional[str] = ..., b: _Optional[str] = ..., sets: _Optional[int] = ..., difference: _Optional[float] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., los: _Optional[float] = ..., p: _Optional[float] = ..., low_corrected: _Optional[float] = ..., high_corrected: _Optional[float] = ..., p_corrected: _Optional[float] = ..., separated: _Optional[bool] = ...) -> None: ...

class DealKey(_message.Message):
    __slots__ = ("league", "key", "commitment")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    league: str
    key: str
    commitment: str
    def __init__(self, league: _Optional[str] = ..., key: _Optional[str] = ..., commitment: _Optional[str] = ...) -> None: ...

class StandingsRow(_message.Message):
    __slots__ = ("bot", "elo", "low", "high", "los_next", "games", "mean_score", "mean_place", "bid_accuracy", "faults", "skill", "forfeited", "version", "owner", "memory_audit")
    BOT_FIELD_NUMBER: _ClassVar[int]
    ELO_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    LOS_NEXT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_FIELD_NUMBER: _ClassVar[int]
    MEAN_PLACE_FIELD_NUMBER: _ClassVar[int]
    BID_ACCURACY_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    SKILL_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    MEMORY_AUDIT_FIELD_NUMBER: _ClassVar[int]
    bot: str
    elo: float
    low: float
    high: float
    los_next: float
    games: int
    mean_score: float
    mean_place: float
    bid_accuracy: float
    faults: int
    skill: float
    forfeited: int
    version: str
    owner: str
    memory_audit: MemoryAudit
    def __init__(self, bot: _Optional[str] = ..., elo: _Optional[float] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., los_next: _Optional[float] = ..., games: _Optional[int] = ..., mean_score: _Optional[float] = ..., mean_place: _Optional[float] = ..., bid_accuracy: _Optional[float] = ..., faults: _Optional[int] = ..., skill: _Optional[float] = ..., forfeited: _Optional[int] = ..., version: _Optional[str] = ..., owner: _Optional[str] = ..., memory_audit: _Optional[_Union[MemoryAudit, _Mapping]] = ...) -> None: ...

class MemoryAudit(_message.Message):
    __slots__ = ("sets", "estimate", "low", "high", "p_value", "flagged")
    SETS_FIELD_NUMBER: _ClassVar[int]
    ESTIMATE_FIELD_NUMBER: _ClassVar[int]
    LOW_FIELD_NUMBER: _ClassVar[int]
    HIGH_FIELD_NUMBER: _ClassVar[int]
    P_VALUE_FIELD_NUMBER: _ClassVar[int]
    FLAGGED_FIELD_NUMBER: _ClassVar[int]
    sets: int
    estimate: float
    low: float
    high: float
    p_value: float
    flagged: bool
    def __init__(self, sets: _Optional[int] = ..., estimate: _Optional[float] = ..., low: _Optional[float] = ..., high: _Optional[float] = ..., p_value: _Optional[float] = ..., flagged: _Optional[bool] = ...) -> None: ...

class GetRecordRequest(_message.Message):
    __slots__ = ("league", "game", "final")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    league: str
    game: int
    final: bool
    def __init__(self, league: _Optional[str] = ..., game: _Optional[int] = ..., final: _Optional[bool] = ...) -> None: ...

class GameRecord(_message.Message):
    __slots__ = ("league", "game", "record")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RECORD_FIELD_NUMBER: _ClassVar[int]
    league: str
    game: int
    record: str
    def __init__(self, league: _Optional[str] = ..., game: _Optional[int] = ..., record: _Optional[str] = ...) -> None: ...

class WatchRequest(_message.Message):
    __slots__ = ("league", "history")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    league: str
    history: bool
    def __init__(self, league: _Optional[str] = ..., history: _Optional[bool] = ...) -> None: ...

class LeagueEvent(_message.Message):
    __slots__ = ("league", "status_changed", "game_finished", "bot_faulted", "standings_changed", "ladder_changed", "final_changed")
    LEAGUE_FIELD_NUMBER: _ClassVar[int]
    STATUS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    GAME_FINISHED_FIELD_NUMBER: _ClassVar[int]
    BOT_FAULTED_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_CHANGED_FIELD_NUMBER: _ClassVar[int]
    LADDER_CHANGED_FIELD_NUMBER: _ClassVar[int]
    FINAL_CHANGED_FIELD_NUMBER: _ClassVar[int]
    league: str
    status_changed: StatusChanged
    game_finished: GameFinished
    bot_faulted: BotFaulted
    standings_changed: Standings
    ladder_changed: Ladder
    final_changed: Ladder
    def __init__(self, league: _Optional[str] = ..., status_changed: _Optional[_Union[StatusChanged, _Mapping]] = ..., game_finished: _Optional[_Union[GameFinished, _Mapping]] = ..., bot_faulted: _Optional[_Union[BotFaulted, _Mapping]] = ..., standings_changed: _Optional[_Union[Standings, _Mapping]] = ..., ladder_changed: _Optional[_Union[Ladder, _Mapping]] = ..., final_changed: _Optional[_Union[Ladder, _Mapping]] = ...) -> None: ...

class StatusChanged(_message.Message):
    __slots__ = ("status", "games_done", "games_total", "reason")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    GAMES_DONE_FIELD_NUMBER: _ClassVar[int]
    GAMES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    status: LeagueStatus
    games_done: int
    games_total: int
    reason: str
    def __init__(self, status: _Optional[_Union[LeagueStatus, str]] = ..., games_done: _Optional[int] = ..., games_total: _Optional[int] = ..., reason: _Optional[str] = ...) -> None: ...

class GameFinished(_message.Message):
    __slots__ = ("game", "seats", "totals", "places", "faults", "games_done", "games_total", "forfeited", "final")
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    PLACES_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    GAMES_DONE_FIELD_NUMBER: _ClassVar[int]
    GAMES_TOTAL_FIELD_NUMBER: _ClassVar[int]
    FORFEITED_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    game: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    totals: _containers.RepeatedScalarFieldContainer[int]
    places: _containers.RepeatedScalarFieldContainer[int]
    faults: int
    games_done: int
    games_total: int
    forfeited: _containers.RepeatedScalarFieldContainer[str]
    final: bool
    def __init__(self, game: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., totals: _Optional[_Iterable[int]] = ..., places: _Optional[_Iterable[int]] = ..., faults: _Optional[int] = ..., games_done: _Optional[int] = ..., games_total: _Optional[int] = ..., forfeited: _Optional[_Iterable[str]] = ..., final: _Optional[bool] = ...) -> None: ...

class BotFaulted(_message.Message):
    __slots__ = ("game", "bot", "seat", "kind", "round", "trick", "detail", "final")
    GAME_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TRICK_FIELD_NUMBER: _ClassVar[int]
    DETAIL_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    game: int
    bot: str
    seat: int
    kind: str
    round: int
    trick: int
    detail: str
    final: bool
    def __init__(self, game: _Optional[int] = ..., bot: _Optional[str] = ..., seat: _Optional[int] = ..., kind: _Optional[str] = ..., round: _Optional[int] = ..., trick: _Optional[int] = ..., detail: _Optional[str] = ..., final: _Optional[bool] = ...) -> None: ...
