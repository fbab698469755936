"""The ``[ladder]`` table of a contest file: how the live ladder makes its tables."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError
from rage_sdk.errors import RageError

from ..limits import MAX_CONCURRENCY
from ..problems import first_problem

MAX_PLACEMENT_SETS = 1000
MAX_ACTIVE_VERSIONS = 16


class LadderSettingsError(RageError, ValueError):
    """A ``[ladder]`` table that cannot be used; the message names the key (``ladder.window: ...``)."""


class LadderSettings(BaseModel):
    """The ``[ladder]`` table; every key has a default a host can leave alone."""

    model_config = ConfigDict(extra="forbid")

    concurrency: StrictInt = Field(1, ge=1, le=MAX_CONCURRENCY)
    """Duplicate sets played at once. Each set's games are played one after another."""
    placement_sets: StrictInt = Field(5, ge=0, le=MAX_PLACEMENT_SETS)
    """Sets a new version plays before it counts as settled. Versions in placement pick their tables first."""
    active_versions: StrictInt = Field(1, ge=1, le=MAX_ACTIVE_VERSIONS)
    """Newest versions of each bot that play: at 1, a newly built version replaces the previous one in
    matchmaking. Older versions keep their sets and ratings."""
    owners_apart: StrictBool = True
    """Never seat two bots of one owner at a table. Two versions of one bot never share a table in any case."""
    window: float = Field(5.0, gt=0, allow_inf_nan=False, strict=True)
    """How far from the first seat's conservative rating (mu - 3 sigma) its opponents are drawn. The
    OpenSkill scale starts a version at mu 25, sigma 25/3, so 5 is about two thirds of a new version's sigma."""
    window_growth: float = Field(2.0, gt=1, le=100, allow_inf_nan=False, strict=True)
    """The factor the window widens by, as often as needed, while too few bots are within it to fill
    the table (owners apart); it widens until every free bot is within it."""


def ladder_settings(table: Any) -> LadderSettings:
    """The ``[ladder]`` table of a contest file, checked; :class:`LadderSettingsError` names the wrong key."""
    try:
        return LadderSettings.model_validate(table)
    except ValidationError as error:
        where, message, _ = first_problem(error, LadderSettings)
        raise LadderSettingsError(f"ladder{'.' + where if where else ''}: {message}") from None
