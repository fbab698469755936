"""A stored league as the reading commands (``rage ratings``, ``rage league report``) open it: from its
league file, or from a database URL and the league's name there."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..faults import Forfeits
from .common import fail

if TYPE_CHECKING:
    from ..league.config import LeagueConfig
    from ..league.release import SetRelease
    from ..league.store import DealKey
    from ..play.finished import FinishedGame


@dataclass(frozen=True)
class StoredLeague:
    """A league's stored games, read; ``config`` when it was named by its league file."""

    name: str
    config: LeagueConfig | None
    games: list[FinishedGame]
    deal_key: DealKey | None
    settings: dict[str, Any]
    """What the league is stored under (its players, duplicate deals, ...)."""
    order: tuple[int, ...] = ()
    """The games' indices in the order they ended (the memory audit's playing order)."""

    @property
    def release(self) -> SetRelease:
        """Which of its games a duplicate set still being played leaves unshown."""
        from ..league.release import SetRelease

        return SetRelease.of_settings(self.settings, self.games)

    @property
    def forfeits(self) -> Forfeits:
        """How its forfeited seats count: as its league file says, else unrated."""
        return self.config.forfeits if self.config is not None else Forfeits.UNRATED


def read_league(file: Path | None, db: str | None, name: str | None, file_option: str) -> StoredLeague:
    """The stored games of the league of a league ``file``, or of league ``name`` in the database ``db``
    (needed only when it holds several); one line and exit 2 when neither or both are given, or the league
    cannot be opened.

    ``file_option`` is how the command takes the file, for that line (``--league FILE``, ``a league FILE``).
    """
    from ..league.config import load_league
    from ..league.runner import stored_league_id
    from ..league.store import Store, sqlite_url

    if (file is None) == (db is None):
        fail(f"give {file_option} or --db URL")
    config = None
    if file is not None:
        config = load_league(file)
        store = Store(config.database_url(file.parent), create=False)
        league_name, league_id = config.name, stored_league_id(config, store)
    else:
        assert db is not None
        store = Store(db if "://" in db else sqlite_url(Path(db)), create=False)
        names = store.league_names()
        if name is None and len(names) != 1:
            fail(f"--name: the database holds {len(names)} leagues ({', '.join(names) or 'none'}); name one")
        league_name = name or names[0]
        league_id = store.league(league_name, create=False)
    games, order = store.games(league_id), tuple(store.play_order(league_id))
    settings = store.league_settings(league_id)
    return StoredLeague(league_name, config, games, store.deal_key(league_id), settings, order)
