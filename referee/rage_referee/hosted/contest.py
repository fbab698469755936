"""A contest: the referee's pieces over one database, wired together."""

from __future__ import annotations

from dataclasses import dataclass

from ..league.store import Store
from .addresses import AllowList
from .auth import Authenticator
from .events import EventHub
from .leagues import LeagueManager
from .registry import Registry
from .standings import StandingsCache


@dataclass
class Contest:
    store: Store
    registry: Registry
    auth: Authenticator
    allow: AllowList
    hub: EventHub
    leagues: LeagueManager
    standings: StandingsCache

    @staticmethod
    def open(db_url: str, admin_token: str, entry_token: str, allow: AllowList) -> Contest:
        """The contest kept in ``db_url``.

        :raises rage_referee.league.store.StoreError: the database cannot be used.
        """
        store = Store(db_url)
        registry = Registry(store.engine)
        hub = EventHub()
        return Contest(
            store,
            registry,
            Authenticator(admin_token, entry_token, registry.bot_of_hash),
            allow,
            hub,
            LeagueManager(registry, store, hub, allow),
            StandingsCache(store),
        )

    def close(self) -> None:
        """Close the database (once the leagues' runs are stopped: :meth:`LeagueManager.close`)."""
        self.store.close()
