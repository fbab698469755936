"""The game record ``rage-record/1`` (``spec/record.md``): pydantic models, reading and writing.

:func:`load_record` turns JSON text into a :class:`GameRecord` whose every field is
well formed, or raises :class:`MalformedRecordError` naming the field
(``rounds[3].pile: unknown card token 'b16'``). Whether the bids and plays are
legal is for :mod:`rage_sdk.replay` to say.
"""

from __future__ import annotations

import codecs
import json
import math
import os
import re
import sys
from collections import Counter
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    StrictStr,
    ValidationError,
)

from .cards import COLOUR_LETTERS, TOKENS, card_id
from .errors import IllegalActionError, RageError, first_problem
from .rules import ChangeMode, Ruleset, RulesetError
from .state import GameState

FORMAT: Final = "rage-record/1"
LONGEST_WORD: Final = 40
"""Longest word a checker's message quotes whole (:func:`brief`)."""


class MalformedRecordError(RageError, ValueError):
    """Input that is not a well-formed ``rage-record/1``; the message names the field."""


def _card_token(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"a card token is a string, not {value!r}")
    card_id(value)  # raises "unknown card token 'b16'"
    return value


def _colour_letter(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or len(value) != 1 or value not in COLOUR_LETTERS:
        raise ValueError(f"{value!r} is not a colour letter (r o y g b p)")
    return value


LONGEST_MS: Final = 25 * 3_600_000
"""The longest a decision can take under any time control: an hour's deadline and a day's bank."""


def milliseconds(value: Any) -> int | None:
    """A recorded time, when it is a whole number of milliseconds a decision can take; else none."""
    return value if type(value) is int and 0 <= value <= LONGEST_MS else None


def _object(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


CardToken = Annotated[str, BeforeValidator(_card_token)]
ColourLetter = Annotated[str | None, BeforeValidator(_colour_letter)]
Milliseconds = Annotated[int | None, BeforeValidator(milliseconds)]
"""A play's ``ms``: never checked, so anything but a whole number of milliseconds reads as none."""
Meta = Annotated[dict[str, Any] | None, BeforeValidator(_object)]
"""A record's ``meta``: never checked, so anything but an object reads as none."""


class RecordPlay(BaseModel):
    """One card played: ``{"seat": 1, "card": "wild", "color": "y", "ms": 12}``. Other keys are ignored."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    seat: StrictInt
    card: CardToken
    color: ColourLetter = None
    value: StrictInt | None = None
    trump: ColourLetter = None
    ms: Milliseconds = None
    """How long the seat took to choose it, when the referee noted it."""


class RecordRound(BaseModel):
    """One round: the deal, the bids by seat and every play in order."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    dealer: StrictInt
    hands: list[list[CardToken]]
    pile: list[CardToken]
    bids: list[StrictInt]
    plays: list[RecordPlay]


def ruleset_of(value: Any) -> Ruleset:
    """A ruleset from a record's ``ruleset`` field; :class:`ValueError` naming what is wrong."""
    return value if isinstance(value, Ruleset) else Ruleset.from_json(value)


class GameRecord(BaseModel):
    """A ``rage-record/1`` document: one game, or some consecutive rounds of one."""

    model_config = ConfigDict(extra="ignore", frozen=True, arbitrary_types_allowed=True)

    format: Literal["rage-record/1"]
    ruleset: Annotated[Ruleset, BeforeValidator(ruleset_of)]
    players: list[StrictStr] = Field(min_length=1)
    first_round: StrictInt = 1
    rounds: list[RecordRound] = Field(min_length=1)
    result: dict[str, Any] | None = None
    meta: Meta = None
    """Who, when and how the game was played (``meta.bid_ms``: the bids' times, per round, by seat)."""

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object, the ruleset as its preset name or overrides."""
        out = self.model_dump(mode="json", exclude={"ruleset"}, exclude_none=True)
        for round_ in out["rounds"]:
            for play in round_["plays"]:
                if play["card"] == "change" and self.ruleset.change_mode == "choose":
                    play.setdefault("trump", None)
        return {"format": FORMAT, "ruleset": self.ruleset.to_json(), **{k: v for k, v in out.items() if k != "format"}}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def start_state(self) -> GameState:
        """The engine's state before the record's first deal: its ruleset, seats, first round and dealer.

        :raises rage_sdk.errors.IllegalActionError: the first dealer is not one of the seats.
        """
        players, dealer = len(self.players), self.rounds[0].dealer
        if not 0 <= dealer < players:  # out-of-range numbers break a rule, as bids and wild values do
            raise IllegalActionError(
                f"the dealer is seat {dealer}, but the seats are 0..{players - 1}",
                round_number=self.first_round,
                trick=None,
                seat=dealer,
            )
        return GameState(self.ruleset, players, first_round=self.first_round, dealer=dealer)


def load_record(text: str | bytes) -> GameRecord:
    """Parse and check a record's shape and deal; :class:`MalformedRecordError` names the field."""
    if isinstance(text, os.PathLike) or (isinstance(text, str) and len(text) < 4096 and text.endswith(".json")):
        raise MalformedRecordError(
            f"load_record takes a record's JSON text, not a path: load_record(Path({os.fspath(text)!r}).read_text())"
        )
    if not isinstance(text, str | bytes):
        raise MalformedRecordError(f"load_record takes a record's JSON text (or bytes), not a {type(text).__name__}")
    data = parse_json(text)
    if not isinstance(data, dict):
        raise MalformedRecordError("a record is a JSON object")
    if "format" not in data:
        fields = ", ".join(repr(key[:40]) for key in list(data)[:4]) or "none"  # repr: escaped, and cut
        raise MalformedRecordError(
            f'format: missing field: this JSON is no game record (one begins {{"format": "{FORMAT}", ...}}; '
            f"its first fields here: {fields})"
        )
    check_result_shape(data.get("result"))
    try:
        record = GameRecord.model_validate(data)
    except ValidationError as error:
        raise MalformedRecordError(first_problem(error)) from None
    check_shape(record)
    return record


def parse_json(text: str | bytes) -> Any:
    """JSON text as RFC 8259 has it: UTF-8 without a byte-order mark, no lone surrogate, numbers a checker holds.

    :raises MalformedRecordError: saying what is wrong ("not UTF-8", "bad JSON", ...).
    """
    if isinstance(text, bytes):
        if text.startswith(codecs.BOM_UTF8):
            raise MalformedRecordError("not UTF-8 JSON: the file starts with a byte-order mark")
        if b"\0" in text:
            raise MalformedRecordError("not UTF-8 JSON: the file holds NUL bytes (UTF-16 or UTF-32?)")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise MalformedRecordError(f"not UTF-8 JSON: invalid UTF-8 at byte {error.start}") from None
    elif text.startswith("\ufeff"):
        raise MalformedRecordError("not UTF-8 JSON: the text starts with a byte-order mark")
    try:
        data = json.loads(text, object_pairs_hook=_object_of, parse_constant=_no_constant, parse_float=_finite)
    except MalformedRecordError:
        raise
    except json.JSONDecodeError as error:
        raise MalformedRecordError(f"bad JSON: {error}") from None
    except RecursionError:
        raise MalformedRecordError("bad JSON: nested too deeply") from None
    except ValueError:  # an integer literal past Python's digit limit
        raise MalformedRecordError(
            f"bad JSON: a number of more than {sys.get_int_max_str_digits()} digits, more than a checker holds"
        ) from None
    _check_strings(data)
    return data


class _Duplicated(dict[str, Any]):
    """A JSON object that names a key more than once (RFC 8259: which one counts is anyone's guess)."""

    duplicate: str = ""


def _object_of(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) == len(pairs):
        return value
    duplicated = _Duplicated(value)
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            duplicated.duplicate = key
            break
        seen.add(key)
    return duplicated


def _no_constant(name: str) -> Any:
    raise MalformedRecordError(f"bad JSON: {name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise MalformedRecordError(f"bad JSON: the number {brief(text)} is more than a checker holds")
    return value


def _check_strings(data: Any) -> None:
    """Refuse a string (or key) that UTF-8 cannot encode (a lone surrogate such as ``"\\ud800"``)
    and an object naming a key twice, saying where."""
    pending = [data]
    while pending:
        value = pending.pop()
        if isinstance(value, _Duplicated):
            where = _path_to(data, value) or "the record"
            where = where if len(where) <= 80 else f"{where[:77]}..."  # keys are the record's own text
            raise MalformedRecordError(f"bad JSON: {where} names the key {short_json(value.duplicate)} twice")
        if isinstance(value, dict):
            pending.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise MalformedRecordError(
                    "not UTF-8 JSON: a string holds a lone surrogate (an unpaired \\uD800-\\uDFFF escape)"
                ) from None


def _path_to(data: Any, target: Any) -> str | None:
    """The JSON path (``rounds[2].plays[5]``) of the value ``target`` is, inside ``data``."""
    pending: list[tuple[str, Any]] = [("", data)]
    while pending:
        where, value = pending.pop()
        if value is target:
            return where
        if isinstance(value, dict):
            pending.extend((f"{where}.{key}" if where else key, item) for key, item in value.items())
        elif isinstance(value, list):
            pending.extend((f"{where}[{index}]", item) for index, item in enumerate(value))
    return None


def check_result_shape(result: Any) -> None:
    """``result`` is absent, ``null`` or an object; its ``rounds``, when a list, holds objects only."""
    if result is None:
        return
    if not isinstance(result, dict):
        raise MalformedRecordError("result: must be an object")
    rounds = result.get("rounds")
    if rounds is None:
        return
    if not isinstance(rounds, list):
        raise MalformedRecordError("result.rounds: must be an array of objects")
    for index, entry in enumerate(rounds):
        if not isinstance(entry, dict):
            raise MalformedRecordError(f"result.rounds[{index}]: must be an object, not {short_json(entry)}")


def short_json(value: Any, longest: int = 80) -> str:
    """A value as a message quotes it: its JSON, cut to ``longest`` characters."""
    text = json.dumps(value)
    return text if len(text) <= longest else f"{text[: longest - 3]}..."


_LONG_WORD = re.compile(rf"\S{{{LONGEST_WORD + 1},}}")


def brief(message: str) -> str:
    """A message safe and short to print: control characters escaped, every word longer than
    :data:`LONGEST_WORD` cut, saying by how much.

    A record can carry a 4,000-digit bid, a 100 KB card token or a name with terminal escapes;
    the message quoting it must not.
    """
    escaped = "".join(c if c.isprintable() or c == " " else c.encode("unicode_escape").decode() for c in message)
    return _LONG_WORD.sub(lambda m: f"{m[0][: LONGEST_WORD - 8]}...({len(m[0])} characters)", escaped)


def cards_text(cards: list[str], shown: int = 5) -> str:
    """A count of cards and the first few: ``3 cards (b1, b1, g2)``, ``2000 cards (b1, ... and 1995 more)``."""
    head = ", ".join(cards[:shown])
    more = f", ... and {len(cards) - shown} more" if len(cards) > shown else ""
    return f"{len(cards)} card{'s' * (len(cards) != 1)}" + (f" ({head}{more})" if cards else "")


def check_shape(record: GameRecord) -> None:
    """The checks of a well-formed record that need the ruleset: counts, sizes and the deck."""
    rules, players = record.ruleset, len(record.players)
    if not rules.min_players <= players <= rules.max_players:
        raise MalformedRecordError(
            f"players: {players} players, but {rules.preset} is for {rules.min_players}-{rules.max_players}"
        )
    try:
        rules.check_players(players)
    except RulesetError as error:
        raise MalformedRecordError(f"ruleset: {error}") from None
    total_rounds = len(rules.rounds)
    if not 1 <= record.first_round <= total_rounds:
        raise MalformedRecordError(f"first_round: {record.first_round} is not 1..{total_rounds}")
    if record.first_round - 1 + len(record.rounds) > total_rounds:
        raise MalformedRecordError(
            f"rounds: {len(record.rounds)} rounds from round {record.first_round}, but the game has {total_rounds}"
        )
    deck = Counter(TOKENS[card] for card in rules.deck)
    for index, round_ in enumerate(record.rounds):
        where = f"rounds[{index}]"
        number = record.first_round + index
        cards = rules.rounds[number - 1]
        if cards * players > len(rules.deck):
            raise MalformedRecordError(f"{where}: {cards} cards each cannot be dealt to {players} players")
        if len(round_.hands) != players:
            raise MalformedRecordError(f"{where}.hands: {len(round_.hands)} hands for {players} players")
        for seat, hand in enumerate(round_.hands):
            if len(hand) != cards:
                raise MalformedRecordError(
                    f"{where}.hands[{seat}]: {len(hand)} cards, but round {number} deals {cards}"
                )
        dealt = Counter(round_.pile)
        for hand in round_.hands:
            dealt.update(hand)
        if dealt != deck:
            extra = sorted((dealt - deck).elements())
            missing = sorted((deck - dealt).elements())
            problems = [
                f"{label} {cards_text(cards)}" for label, cards in (("extra", extra), ("missing", missing)) if cards
            ]
            raise MalformedRecordError(
                f"{where}: hands and pile are not the {rules.preset} deck ({', '.join(problems)})"
            )
        if len(round_.bids) != players:
            raise MalformedRecordError(f"{where}.bids: {len(round_.bids)} bids for {players} players")
        if len(round_.plays) != players * cards:
            raise MalformedRecordError(
                f"{where}.plays: {len(round_.plays)} plays, but {players} players x {cards} cards is {players * cards}"
            )


def record_json(state: GameState, players: list[str]) -> dict[str, Any]:
    """The record of every round ``state`` has finished, with its result, as JSON data."""
    if isinstance(players, str):
        raise TypeError(f"players is a list of the seats' names, not the text {players!r}")
    if len(players) != state.players:
        raise ValueError(f"players: {len(players)} names for {state.players} seats")
    if not state.logs:
        raise ValueError("no round finished yet: nothing to record")
    choose = state.ruleset.change_mode is ChangeMode.CHOOSE
    rounds = []
    for log in state.logs:
        plays = []
        for seat, play in log.plays:
            fields = play.to_json()
            if not choose:
                fields.pop("trump", None)
            plays.append({"seat": seat, **fields})
        rounds.append(
            {
                "dealer": log.dealer,
                "hands": [[TOKENS[card] for card in hand] for hand in log.hands],
                "pile": [TOKENS[card] for card in log.pile],
                "bids": list(log.bids),
                "plays": plays,
            }
        )
    return {
        "format": FORMAT,
        "ruleset": state.ruleset.to_json(),
        "players": list(players),
        "first_round": state.logs[0].round_number,
        "rounds": rounds,
        "result": {
            "rounds": [{"tricks_won": list(r.tricks_won), "points": list(r.points)} for r in state.results],
            "totals": [sum(r.points[seat] for r in state.results) for seat in range(state.players)],
        },
    }


def record_of(state: GameState, players: list[str]) -> GameRecord:
    """The record of every round ``state`` has finished, with its result."""
    return GameRecord.model_validate(record_json(state, players))
