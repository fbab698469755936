"""Rulesets: the presets of ``rules.md`` and every option they fix.

A :class:`Ruleset` is a preset plus overridden options::

    Ruleset.of("fundex")
    Ruleset.of("amigo", bidding="secret", sweep="double_tricks")

The deck and the player range come with the preset and cannot be overridden.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError, model_validator

from .cards import CHANGE, MINUS5, NOTRUMP, NUM_COLOURED, PLUS5, WILD
from .errors import first_problem

PresetName = Literal["amigo", "fundex", "waddingtons", "amigo1985"]


class NotrumpScope(StrEnum):
    TRICK = "trick"
    ROUND = "round"


class ChangeMode(StrEnum):
    REVEAL = "reveal"
    CHOOSE = "choose"


class WildTie(StrEnum):
    LATER_WINS = "later_wins"
    EARLIER_WINS = "earlier_wins"


class Sweep(StrEnum):
    NONE = "none"
    DOUBLE_TRICKS = "double_tricks"
    DOUBLE_ROUND = "double_round"


class Bidding(StrEnum):
    OPEN = "open"
    HIDDEN = "hidden"
    SECRET = "secret"


class Tiebreak(StrEnum):
    NONE = "none"
    MOST_HITS = "most_hits"


@dataclass(frozen=True)
class Edition:
    """What a preset fixes for good: its deck of action cards and its player range."""

    wild: int
    notrump: int
    change: int
    plus5: int
    minus5: int
    min_players: int
    max_players: int

    @property
    def deck(self) -> tuple[int, ...]:
        """The deck as card ids in canonical order: colours r..p by value, then action cards."""
        actions = (
            [WILD] * self.wild
            + [NOTRUMP] * self.notrump
            + [CHANGE] * self.change
            + [PLUS5] * self.plus5
            + [MINUS5] * self.minus5
        )
        return tuple(range(NUM_COLOURED)) + tuple(actions)


EDITIONS: Final[dict[str, Edition]] = {
    "amigo": Edition(2, 4, 4, 3, 3, 2, 10),
    "fundex": Edition(2, 4, 4, 2, 2, 2, 8),
    "waddingtons": Edition(2, 3, 3, 2, 2, 2, 10),
    "amigo1985": Edition(2, 3, 3, 2, 2, 2, 10),
}

_STANDARD_ROUNDS: Final = list(range(10, 0, -1))

_AMIGO: Final[dict[str, Any]] = dict(
    rounds=_STANDARD_ROUNDS, notrump_scope="trick", change_mode="reveal", wild_tie="later_wins",
    wild_declares_value=False, action_cards_anytime=False, first_action_of_kind_only=False,
    points_per_trick=1, bid_hit=10, bid_zero_hit=10, bid_miss=-5, sweep="none",
    sweep_in_one_card_round=False, plus_minus_one=False, bidding="open", tiebreak="none",
)  # fmt: skip
_FUNDEX: Final[dict[str, Any]] = _AMIGO | dict(
    notrump_scope="round", change_mode="choose", wild_tie="earlier_wins", bid_zero_hit=5, bid_miss=0,
    tiebreak="most_hits",
)  # fmt: skip

#: The options of each preset (rules.md, Presets). Waddingtons' action cards follow Fundex (decided).
PRESETS: Final[dict[str, dict[str, Any]]] = {
    "amigo": _AMIGO,
    "fundex": _FUNDEX,
    "waddingtons": _FUNDEX | dict(
        wild_declares_value=True, bid_zero_hit=10, bid_miss=-5, sweep="double_round",
        sweep_in_one_card_round=True, tiebreak="none",
    ),
    "amigo1985": _AMIGO,
}  # fmt: skip

OPTION_NAMES: Final = tuple(PRESETS["amigo"])

MAX_ROUNDS: Final = 100
"""The most entries ``rounds`` may have."""
MAX_POINTS: Final = 10_000
"""The largest size of a points option (``points_per_trick``, ``bid_hit``, ...): with at most
:data:`MAX_ROUNDS` rounds, every score of a game fits the protocol's 32-bit numbers."""
Points = Annotated[StrictInt, Field(ge=-MAX_POINTS, le=MAX_POINTS)]


class RulesetError(ValueError):
    """A ruleset that ``rules.md`` does not allow, or a table it cannot seat."""


def unknown_preset(name: object) -> str:
    """What to say of ``name``, no preset: the presets, and the one it is closest to, if any."""
    guess = difflib.get_close_matches(name, PRESETS, n=1) if isinstance(name, str) else []
    return f"unknown preset {name!r} (one of {', '.join(PRESETS)}" + (f"; did you mean {guess[0]}?)" if guess else ")")


class Ruleset(BaseModel):
    """One set of the options of ``rules.md``: a preset with any options overridden."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_enum_values=False)

    preset: PresetName
    rounds: tuple[StrictInt, ...] = Field(
        min_length=1, max_length=MAX_ROUNDS, description="cards dealt in each round, in order"
    )
    notrump_scope: NotrumpScope
    change_mode: ChangeMode
    wild_tie: WildTie
    wild_declares_value: StrictBool
    action_cards_anytime: StrictBool
    first_action_of_kind_only: StrictBool
    points_per_trick: Points
    bid_hit: Points
    bid_zero_hit: Points
    bid_miss: Points
    sweep: Sweep
    sweep_in_one_card_round: StrictBool
    plus_minus_one: StrictBool
    bidding: Bidding
    tiebreak: Tiebreak

    @model_validator(mode="before")
    @classmethod
    def _fill_from_preset(cls, data: Any) -> Any:
        if isinstance(data, str):
            data = {"preset": data}
        if isinstance(data, dict) and data.get("preset") in PRESETS:
            return {**PRESETS[data["preset"]], **data}
        if isinstance(data, dict) and "preset" in data:  # one error, not one for each option it would have filled
            raise ValueError(unknown_preset(data["preset"]))
        return data

    @model_validator(mode="after")
    def _check_combination(self) -> Ruleset:
        if self.plus_minus_one and self.bidding is not Bidding.OPEN:
            raise ValueError("plus_minus_one needs open bidding (the dealer must see the other bids)")
        if any(cards < 1 for cards in self.rounds):
            raise ValueError("rounds: every round deals at least 1 card")
        deck_size = len(self.deck)
        if max(self.rounds) * self.edition.min_players > deck_size:
            raise ValueError(
                f"rounds: {max(self.rounds)} cards each cannot be dealt to "
                f"{self.edition.min_players} players from the {deck_size}-card {self.preset} deck"
            )
        return self

    @classmethod
    def of(cls, preset: str, **overrides: Any) -> Ruleset:
        """A preset, with ``overrides`` for any options.

        :raises RulesetError: ``preset`` is none of :data:`PRESETS`, or an override is no option or no value of it.
        """
        return cls.from_json({"preset": preset, **overrides})

    @classmethod
    def from_json(cls, value: object) -> Ruleset:
        """A ruleset as a record's ``ruleset`` field gives it: a preset's name, or ``{"preset": NAME, OPTION: VALUE}``.

        :raises RulesetError: one line naming what is wrong (the preset, an option, or its value).
        """
        if isinstance(value, str):
            value = {"preset": value}
        if not isinstance(value, dict):
            raise RulesetError('a preset name or an object {"preset": NAME, OPTION: VALUE, ...}')
        if "preset" not in value:
            raise RulesetError(f"preset: missing; every ruleset starts from one of {', '.join(PRESETS)}")
        preset = value["preset"]
        if not isinstance(preset, str) or preset not in PRESETS:
            raise RulesetError(unknown_preset(preset))
        for key in value:
            if key != "preset" and key not in OPTION_NAMES:
                guess = difflib.get_close_matches(str(key), OPTION_NAMES, n=1)
                raise RulesetError(f"unknown option {key!r}" + (f" (did you mean {guess[0]}?)" if guess else ""))
        try:
            return cls.model_validate(value)
        except ValidationError as error:
            raise RulesetError(first_problem(error)) from None

    @cached_property
    def edition(self) -> Edition:
        return EDITIONS[self.preset]

    @cached_property
    def deck(self) -> tuple[int, ...]:
        return self.edition.deck

    @property
    def min_players(self) -> int:
        return self.edition.min_players

    @property
    def max_players(self) -> int:
        return self.edition.max_players

    def overrides(self) -> dict[str, Any]:
        """The options that differ from the preset, as JSON values."""
        base = PRESETS[self.preset]
        mine = self.model_dump(mode="json", exclude={"preset"})
        return {name: value for name, value in mine.items() if value != base[name]}

    def to_json(self) -> str | dict[str, Any]:
        """The ``ruleset`` field of a record: the preset name, or an object with overrides."""
        changed = self.overrides()
        return {"preset": self.preset, **changed} if changed else self.preset

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesetError` unless ``players`` can sit at this ruleset's table."""
        low, high = self.min_players, self.max_players
        if not low <= players <= high:
            raise RulesetError(f"{self.preset} is for {low}-{high} players, not {players}")
        deck_size = len(self.deck)
        if max(self.rounds) * players > deck_size:
            raise RulesetError(
                f"rounds: {max(self.rounds)} cards each cannot be dealt to {players} players "
                f"from the {deck_size}-card {self.preset} deck"
            )

    def describe(self) -> str:
        """The preset and its overrides, in one line."""
        changed = self.overrides()
        extra = ", ".join(f"{name}={value}" for name, value in changed.items())
        return f"{self.preset} ({extra})" if extra else self.preset
