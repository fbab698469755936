"""Which of a running league's stored games may be shown: those whose duplicate set is stored whole.

Every game of a duplicate set deals the same cards, so anything of one of its games shown before the
set's last game is played (its record, replay, seed, scores) tells the bots still to play the set the
other seats' hands. A set's size is its seatings' count (:func:`~.seatings.seatings`), the number of
games the schedule gives it, not the table's seat count; without duplicate deals each game is a set of
its own. Its games may be played in any order: a set is released once all of its games are stored.
Every route (``GetRecord``, ``Watch``, the live pages, ``rage league report``) asks this one check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from ..play.finished import FinishedGame
from .seatings import seatings


class _Stored(Protocol):
    @property
    def index(self) -> int: ...

    @property
    def set_id(self) -> int: ...


G = TypeVar("G", bound=_Stored)


@dataclass(frozen=True)
class SetRelease:
    """The release check of one league: ``set_size`` games in each set; ``over``, everything is shown."""

    set_size: int
    over: bool = False
    """The league will play no more (finished or cancelled): nothing is left to hide."""

    @staticmethod
    def of(players: int, duplicate: bool, over: bool = False) -> SetRelease:
        """The check of a league of ``players`` at each table, with duplicate deals or not."""
        return SetRelease(len(seatings(players)) if duplicate else 1, over)

    @staticmethod
    def of_settings(settings: Mapping[str, Any], games: Sequence[FinishedGame]) -> SetRelease:
        """The check of a league stored under ``settings`` (its players and ``duplicate``); of one stored
        without them, as its ``games`` show: duplicate when a set holds two, at the most seats a game has."""
        if "players" in settings:
            return SetRelease.of(int(settings["players"]), settings.get("duplicate", True) is not False)
        sets = Counter(game.set_id for game in games)
        players = max((len(game.figures.seats) for game in games), default=2)
        return SetRelease.of(players, max(sets.values(), default=1) > 1)

    def waiting(self, stored_in_set: int) -> int:
        """How many games of a set holding ``stored_in_set`` stored games are still to be played."""
        return 0 if self.over else max(self.set_size - stored_in_set, 0)

    def released(self, games: Sequence[G]) -> list[G]:
        """Those of a league's stored ``games`` that may be shown, in their order."""
        if self.over:
            return list(games)
        stored = Counter(game.set_id for game in games)
        return [game for game in games if stored[game.set_id] >= self.set_size]

    def unreleased_sets(self, games: Iterable[_Stored]) -> set[int]:
        """The sets of ``games`` still being played (some of their games stored, not all)."""
        if self.over:
            return set()
        stored = Counter(game.set_id for game in games)
        return {set_id for set_id, count in stored.items() if count < self.set_size}
