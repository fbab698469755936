"""A league's record files, written once their duplicate set is complete.

A finished game's record shows its deal, and the other games of its duplicate set are dealt the
same hands: a bot that could read the record before they are played would know every hand of
them. So the files of a set are written together, after its last game is stored (the database
holds every game the moment it ends); a run that starts writes those a stopped run left unwritten.
"""

from __future__ import annotations

import json
import os
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from rage_sdk.errors import RageError

from ..play.finished import FinishedGame
from ..records.file import read_regular
from ..text import bot_text
from .schedule import ScheduledGame
from .store import Store


class RecordFileError(RageError, RuntimeError):
    """A record file, or its folder, that cannot be written; the message names it and why."""

    exit_code = 1


def make_records_folder(directory: Path) -> None:
    """Make the folder for record files (and its parents) if it is missing.

    :raises RecordFileError: it cannot be made, or is there but not a folder.
    """
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = "it is not a folder" if isinstance(error, FileExistsError) else error.strerror or str(error)
        raise RecordFileError(f"cannot make the records folder {directory}: {reason}") from None


def foreign_record(directory: Path, league: str, commitment: str | None) -> str | None:
    """A record file in ``directory`` that another league (or a match) wrote, in words; None when it holds
    none, or this league's (dealt from the same key), as one of its files shows: a league writes only its own.
    Another's would be overwritten by this league's files of the same names."""
    path = next(directory.glob("game-*.json"), None)
    if path is None:
        return None
    try:
        meta = json.loads(read_regular(path)).get("meta")
    except (ValueError, AttributeError, RecursionError):  # not a regular file, not JSON, not an object, too deep
        meta = None
    if not isinstance(meta, dict):
        return f"{path.name}, a file of no league"
    owner = meta.get("league")
    if owner == league and meta.get("deal_commitment") == commitment:
        return None
    if isinstance(owner, str):
        dealt = " dealt from another key" if owner == league else ""
        return f"{path.name}, a record of league {bot_text(owner, 60)!r}{dealt}"
    return f"{path.name}, a record of {'a match' if 'match' in meta else 'no league'}"


def write_record_file(directory: Path, index: int, record: dict[str, Any]) -> Path:
    """Write a game's record as ``game-NNNNN.json``, atomically.

    :raises RecordFileError: the file or its folder cannot be written (the disk is full, the folder gone).
    """
    make_records_folder(directory)
    path = directory / f"game-{index:05d}.json"
    scratch = path.with_suffix(".json.tmp")
    try:
        scratch.write_text(json.dumps(record, indent=1))
        os.replace(scratch, path)
    except OSError as error:
        scratch.unlink(missing_ok=True)
        raise RecordFileError(f"cannot write {path}: {error.strerror or error}") from None
    return path


class RecordFiles:
    """Holds back the record files of a league's duplicate sets until each set is complete."""

    def __init__(self, directory: Path, store: Store, league_id: int, games: list[ScheduledGame]) -> None:
        self.directory = directory
        self.store = store
        self.league_id = league_id
        self.set_of = {game.index: game.set_id for game in games}
        self.members: dict[int, list[int]] = defaultdict(list)
        for game in games:
            self.members[game.set_id].append(game.index)
        self.stored = Counter(self.set_of[index] for index in store.finished(league_id))
        self.held: dict[int, dict[int, dict[str, Any]]] = defaultdict(dict)
        """The records of this run's games whose set is not complete yet, by set and index."""

    def catch_up(self) -> None:
        """Write the files of every complete set that has one missing (a run stopped in between)."""
        for set_id, count in self.stored.items():
            if count == len(self.members[set_id]) and not self._all_written(set_id):
                self._write(set_id)

    def stored_game(self, game: FinishedGame) -> None:
        """``game`` is stored: hold its record, and write its set's files when it was the set's last."""
        set_id = self.set_of[game.index]
        self.stored[set_id] += 1
        self.held[set_id][game.index] = game.record
        if self.stored[set_id] == len(self.members[set_id]):
            self._write(set_id)

    def _all_written(self, set_id: int) -> bool:
        return all((self.directory / f"game-{index:05d}.json").is_file() for index in self.members[set_id])

    def _write(self, set_id: int) -> None:
        """Write the set's files: the records held, and those an earlier run stored read from the database."""
        records = self.held.pop(set_id, {})
        earlier = [index for index in self.members[set_id] if index not in records]
        if earlier:
            records |= self.store.records(self.league_id, earlier)
        for index, record in sorted(records.items()):
            write_record_file(self.directory, index, record)
