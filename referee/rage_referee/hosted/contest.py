"""A contest: the referee's pieces over one database, wired together."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy.engine import make_url

from ..league.store import Store
from ..runner.settings import LOCAL, RunnerSettings
from .addresses import AllowList
from .auth import Authenticator, token_hash
from .events import EventHub
from .ladders import LadderManager
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
    leagues: LadderManager
    standings: StandingsCache
    submissions: Submissions
    own_seats: set[str] = field(default_factory=set)
    """The seats (:func:`~rage_referee.seats.spec.seat_address`) the referee's own service and pages listen on,
    once :func:`~.server.create_server` and :func:`~rage_referee.report.live.start_http` serve them: no bot
    may be registered there."""

    @staticmethod
    def open(
        db_url: str,
        admin_token: str,
        entry_token: str,
        allow: AllowList,
        submissions_dir: Path | None = None,
        policy: SandboxPolicy | None = None,
        runner: RunnerSettings = LOCAL,
        build_slots: int = 1,
    ) -> Contest:
        """The contest kept in ``db_url``; submitted bots' versions in ``submissions_dir`` (default:
        ``referee-submissions`` here), built ``build_slots`` at a time and run as ``policy`` says (default:
        in the sandbox, probed at first use); the leagues' games played where ``runner`` says (default: on
        this machine). ``entry_token`` is the entrant ``entry``'s token.

        :raises rage_referee.league.store.StoreError: the database cannot be used.
        """
        store = Store(db_url, wal=True)  # the live pages read it while games are stored
        registry = Registry(store.engine)
        registry.keep_entry_token(token_hash(entry_token))
        hub = EventHub()
        root = submissions_dir or Path("referee-submissions")
        submissions = Submissions(root, Versions(store.engine), policy, database_folders(db_url), build_slots)
        return Contest(
            store,
            registry,
            Authenticator(admin_token, registry.holder_of_hash),
            allow,
            hub,
            LadderManager(registry, store, hub, allow, submissions, runner),
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
