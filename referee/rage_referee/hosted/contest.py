"""A contest: the referee's pieces over one database, wired together."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import make_url

from ..league.store import Store
from ..runner.settings import LOCAL, RunnerSettings
from .addresses import AllowList
from .auth import Authenticator
from .events import EventHub
from .leagues import LeagueManager
from .registry import Registry
from .standings import StandingsCache
from .submissions import SandboxPolicy, Submissions
from .versions import Versions


@dataclass
class Contest:
    store: Store
    registry: Registry
    auth: Authenticator
    allow: AllowList
    hub: EventHub
    leagues: LeagueManager
    standings: StandingsCache
    submissions: Submissions

    @staticmethod
    def open(
        db_url: str,
        admin_token: str,
        entry_token: str,
        allow: AllowList,
        submissions_dir: Path | None = None,
        policy: SandboxPolicy | None = None,
        runner: RunnerSettings = LOCAL,
    ) -> Contest:
        """The contest kept in ``db_url``; submitted bots' versions in ``submissions_dir`` (default:
        ``referee-submissions`` here), run as ``policy`` says (default: in the sandbox, probed at first use);
        the leagues' games played where ``runner`` says (default: on this machine).

        :raises rage_referee.league.store.StoreError: the database cannot be used.
        """
        store = Store(db_url, wal=True)  # the live pages read it while games are stored
        registry = Registry(store.engine)
        hub = EventHub()
        root = submissions_dir or Path("referee-submissions")
        submissions = Submissions(root, Versions(store.engine), policy, database_folders(db_url))
        return Contest(
            store,
            registry,
            Authenticator(admin_token, entry_token, registry.bot_of_hash),
            allow,
            hub,
            LeagueManager(registry, store, hub, allow, submissions, runner),
            StandingsCache(store),
            submissions,
        )

    def close(self) -> None:
        """Close the database (once the leagues' runs are stopped: :meth:`LeagueManager.close`)."""
        self.store.close()


def database_folders(url: str) -> list[Path]:
    """The folder of an SQLite database file (with its journals); none for a server's database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return []
    return [Path(parsed.database).resolve().parent]
