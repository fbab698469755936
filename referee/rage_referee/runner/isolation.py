"""Isolation: which process of a bot plays which game, so no bot carries one game's hands into another of its deal.

A duplicate set deals the same cards to each of its games, so a bot process that plays two of them
knows, in the second, hands it saw held by other seats in the first. :class:`Isolation` says how
far the referee keeps a bot's games apart; :class:`Seating` holds each bot's processes (a
:class:`BotPool`) and lends every game one process of each of its bots:

- ``deal``: a pool of processes per bot, started as games need them; a process plays games of
  many sets, at once too, but never two games of one set;
- ``game``: a fresh process every game, stopped when it ends;
- ``league``: one process per bot for the whole league (trusted local testing).

Only the bots the referee launches (commands, submitted bots) can be isolated: a bot at an address
or loaded in-process is one and the same for every game, whatever the setting.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..play.finished import FinishedGame
from ..play.game import play_game
from ..play.ledger import FaultLedger
from ..play.spec import GameSpec
from ..seats import BotHandle, BotKind, BotSpec, BotSpecError, HandshakeError, start_all
from ..text import name_text
from .tasks import all_or_cancel


class Isolation(StrEnum):
    """How far the referee keeps a launched bot's games apart (the module docstring)."""

    DEAL = "deal"
    GAME = "game"
    LEAGUE = "league"


ISOLABLE = (BotKind.COMMAND, BotKind.SUBMISSION)
"""The bots the referee launches, and so can give a process of their own."""

HandleMaker = Callable[[BotSpec, Path], BotHandle]
"""A bot's handle, its logs in the folder given."""


@dataclass(eq=False)
class Member:
    """One process of a bot's pool and the sets it has played (or is playing)."""

    handle: BotHandle
    sets: set[int] = field(default_factory=set)
    started: asyncio.Future[None] | None = None
    """Its start, which every game lent it meanwhile waits for; none: started at entry."""
    failure: HandshakeError | BotSpecError | None = None
    """Why it could not start, if it could not."""


class BotPool:
    """One bot's processes, lent to games as :class:`Isolation` allows; the first is the one started at entry.

    The first process logs to ``log_dir`` (``NAME.log``), the K-th to ``log_dir/process-K``.
    """

    def __init__(self, spec: BotSpec, isolation: Isolation, log_dir: Path, make: HandleMaker) -> None:
        self.isolation = isolation if spec.kind in ISOLABLE else Isolation.LEAGUE
        self.log_dir = log_dir
        self.make = make
        self.launched = 0
        """Processes made so far (the first included)."""
        self.first = self._new(spec)
        self.members: list[Member] = [] if self.isolation is Isolation.GAME else [Member(self.first)]
        """The processes that may be lent (in ``game``, those playing: each is stopped after its game)."""
        self.unused_first = self.isolation is Isolation.GAME
        """In ``game``, the first process (started at entry) still waits for its one game."""

    @property
    def name(self) -> str:
        return self.first.spec.name

    def _new(self, spec: BotSpec) -> BotHandle:
        self.launched += 1
        folder = self.log_dir if self.launched == 1 else self.log_dir / f"process-{self.launched}"
        return self.make(spec, folder)

    def lend(self, set_id: int) -> tuple[Member, bool]:
        """A process for a game of ``set_id``, and whether it must be started first."""
        member: Member | None
        if self.isolation is Isolation.LEAGUE:
            member = self.members[0]
        elif self.isolation is Isolation.DEAL:
            free = [m for m in self.members if set_id not in m.sets]
            member = free[0] if free else None
        else:
            member = None
            if self.unused_first:
                self.unused_first = False
                member = Member(self.first)
                self.members.append(member)
        fresh = member is None
        if member is None:
            member = Member(self._new(self.first.spec))
            self.members.append(member)
        member.sets.add(set_id)
        return member, fresh

    async def back(self, member: Member) -> None:
        """A game of ``member``'s has ended; in ``game`` its process is stopped."""
        if self.isolation is Isolation.GAME:
            self.drop(member)
            await member.handle.stop()

    def drop(self, member: Member) -> None:
        """Lend ``member`` no more (its process could not start, or has played its game)."""
        with contextlib.suppress(ValueError):
            self.members.remove(member)

    def readdress(self, address: str) -> None:
        """Call a bot at an address (one process: never isolated) at ``address`` from now on."""
        self.first.readdress(address)

    def handles(self) -> Iterator[BotHandle]:
        """Every process of the pool still to stop, the first included."""
        yield self.first
        yield from (m.handle for m in self.members if m.handle is not self.first)


class Seating:
    """Every bot's :class:`BotPool`; lends each game one process of each of its bots, started as needed.

    ``forfeit_on_failure``: a process that cannot start when a game needs it forfeits its bot (as a bot
    that cannot start at entry is, under a league's ``keep_going`` or a hosted league); otherwise the
    game raises the bot's error, naming it.
    """

    def __init__(
        self,
        specs: Iterable[BotSpec],
        isolation: Isolation,
        log_dir: Path,
        make: HandleMaker,
        forfeit_on_failure: bool,
    ) -> None:
        self.pools = {spec.name: BotPool(spec, isolation, log_dir, make) for spec in specs}
        self.forfeit_on_failure = forfeit_on_failure
        self._starting: set[asyncio.Future[None]] = set()

    @property
    def first(self) -> dict[str, BotHandle]:
        """Each bot's first process (or its one connection), by name."""
        return {name: pool.first for name, pool in self.pools.items()}

    async def start(self, names: Iterable[str], keep_going: bool) -> dict[str, str]:
        """Start each named bot's first process, as :func:`~rage_referee.seats.start_all` does."""
        return await start_all([self.pools[name].first for name in names], keep_going=keep_going)

    @property
    def launched(self) -> int:
        """Processes made so far, over every bot (a bot at an address or in-process counts once)."""
        return sum(pool.launched for pool in self.pools.values())

    async def play(self, spec: GameSpec, ledger: FaultLedger) -> FinishedGame:
        """Referee ``spec`` with a process of each of its bots lent for it, then give them back."""
        lent: list[tuple[BotPool, Member]] = []
        handles: dict[str, BotHandle] = {}
        try:
            for name in dict.fromkeys(spec.seats):
                pool = self.pools[name]
                if name in ledger.forfeited:  # not asked: no process to lend
                    handles[name] = pool.first
                    continue
                member, fresh = pool.lend(spec.set_id)
                lent.append((pool, member))
                handles[name] = member.handle
                if fresh:
                    member.started = asyncio.ensure_future(self._start(pool, member))
                    self._starting.add(member.started)
                    member.started.add_done_callback(self._starting.discard)
            await all_or_cancel([_shielded(m.started) for _, m in lent if m.started is not None])
            for pool, member in lent:
                if member.failure is not None:
                    self._failed(pool.name, member.failure, ledger)
            return await play_game(spec, handles, ledger)
        finally:
            await asyncio.gather(*(pool.back(member) for pool, member in lent), return_exceptions=True)

    async def _start(self, pool: BotPool, member: Member) -> None:
        """Start a process that games need; one that cannot start is lent no more, and says why."""
        try:
            await member.handle.start()
        except (HandshakeError, BotSpecError) as error:
            member.failure = error
            pool.drop(member)
            await member.handle.stop()

    def _failed(self, name: str, error: HandshakeError | BotSpecError, ledger: FaultLedger) -> None:
        """A process of ``name`` a game needs could not start: the bot is forfeited, or the error raised naming it."""
        if not self.forfeit_on_failure:
            raise type(error)(f"{name_text(name)}: {error}") from None
        ledger.forfeit(name, f"could not start: {error}")

    def readdress(self, name: str, address: str) -> None:
        pool = self.pools.get(name)
        if pool is not None:
            pool.readdress(address)

    async def stop(self) -> None:
        """Stop every process made, those still starting too."""
        for starting in list(self._starting):
            starting.cancel()
        await asyncio.gather(*self._starting, return_exceptions=True)
        handles = [handle for pool in self.pools.values() for handle in pool.handles()]
        await asyncio.gather(*(handle.stop() for handle in handles), return_exceptions=True)


async def _shielded(started: asyncio.Future[None]) -> None:
    """Wait for a start that other games may wait for too: a game cancelled leaves it going."""
    await asyncio.shield(started)


def interleaved(specs: Iterable[GameSpec], window: int) -> Iterator[GameSpec]:
    """``specs`` (each set's games one after another) taken ``window`` sets at a time, the first game of
    each, then the second of each, and so on: the games in flight at once are of different sets, so a
    bot's process plays several of them (``deal`` isolation), where one set's games would each need
    one of their own. The games keep their indices; only the order they are played in changes."""
    sets: dict[int, list[GameSpec]] = {}
    for spec in specs:
        if spec.set_id not in sets and len(sets) == window:
            yield from _game_major(sets)
            sets = {}
        sets.setdefault(spec.set_id, []).append(spec)
    yield from _game_major(sets)


def _game_major(sets: dict[int, list[GameSpec]]) -> Iterator[GameSpec]:
    longest = max((len(games) for games in sets.values()), default=0)
    for k in range(longest):
        for games in sets.values():
            if k < len(games):
                yield games[k]
