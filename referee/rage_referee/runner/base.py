"""The runner seam: games in, finished games out, the bots started and stopped around them.

A caller builds a runner over the bots, enters it (the bots start), hands :meth:`GameRunner.run`
the games to play and stores each :class:`~rage_referee.play.finished.FinishedGame` as it arrives; the
runner stores nothing. The :class:`~rage_referee.play.ledger.FaultLedger` (fault counts, forfeits)
belongs to the caller: a runner charges it as its games report faults. :class:`LocalRunner`
charges it live; a runner that plays elsewhere may fold each game's charges in when the game
returns, so there a bot's forfeit can lag by the games in flight.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from pathlib import Path
from types import TracebackType
from typing import Self, TypedDict

from rage_sdk.errors import RageError

from ..play.finished import FinishedGame
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec
from ..sandbox import Sandbox
from ..seats import BotSpec
from ..submissions.store import Submission
from .isolation import Isolation

OnFinished = Callable[[FinishedGame], None]
OnFailed = Callable[[GameSpec, BaseException], None]


class RunnerError(RageError, RuntimeError):
    """A runner that cannot run here (what it needs is missing, its cluster cannot be reached); one line."""

    exit_code = 1


class StartFailure(StrEnum):
    """What a runner does about a bot that cannot start."""

    RAISE = "raise"
    """Stop every start and raise the bot's error (a match)."""
    FORFEIT = "forfeit"
    """Forfeit the bot, so the referee plays its games (a league's ``keep_going``)."""
    RETRY = "retry"
    """Try again at its next decision (hosted bots at addresses that may come up later)."""


class RunnerOptions(TypedDict, total=False):
    """:class:`GameRunner`'s settings past its bots and ledger, for a runner or factory that passes them on."""

    concurrency: int
    log_dir: Path
    start_failure: StartFailure
    sandbox: Sandbox | None
    submissions: Mapping[str, Submission] | None
    isolation: Isolation


class GameRunner(ABC):
    """Plays games among bots it starts and stops; only the caller stores what finishes.

    Bots the ledger has forfeited already are not started. Those that could not start are in
    :attr:`unstarted` with why (forfeited or retried later, as ``start_failure`` says).
    """

    def __init__(
        self,
        bots: Sequence[BotSpec],
        ledger: FaultLedger,
        concurrency: int = 1,
        log_dir: Path = Path("logs"),
        *,
        start_failure: StartFailure = StartFailure.RAISE,
        sandbox: Sandbox | None = None,
        submissions: Mapping[str, Submission] | None = None,
        isolation: Isolation = Isolation.LEAGUE,
    ) -> None:
        self.bots = {bot.name: bot for bot in bots}
        self.ledger = ledger
        self.concurrency = max(1, concurrency)
        self.log_dir = log_dir
        self.start_failure = start_failure
        self.sandbox = sandbox
        """The sandbox every launched command runs in; none: with the referee's rights."""
        self.submissions = dict(submissions or {})
        """The stored and built version of each ``submission:`` bot, by name."""
        self.isolation = isolation
        """Which process of a launched bot plays which game (:mod:`.isolation`)."""
        self.unstarted: dict[str, str] = {}
        """Bots that could not start, each with why."""
        self.stopping = False

    @abstractmethod
    async def __aenter__(self) -> Self:
        """Start (or connect to) every bot not forfeited, as :attr:`start_failure` says."""

    @abstractmethod
    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        """Stop every bot process the runner launched, and its children."""

    @abstractmethod
    async def run(self, specs: Iterable[GameSpec], on_finished: OnFinished, on_failed: OnFailed | None = None) -> None:
        """Play ``specs`` (taken lazily, so :meth:`stop` leaves the rest untaken), ``concurrency`` at a time.

        ``on_finished`` is called on the event loop, one game at a time; when it raises, the games
        in flight are cancelled and the error goes on. A game that raises goes to ``on_failed``
        (without it, the error goes on the same way).
        """

    def stop(self) -> None:
        """Start no more games; the games in flight finish."""
        self.stopping = True

    def readdress(self, bot: str, address: str) -> None:
        """Call ``bot`` (one serving at an address) at ``address`` from its next connection on."""
        if bot in self.bots:
            self.bots[bot] = replace(self.bots[bot], target=address)
