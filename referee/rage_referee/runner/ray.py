"""RayRunner: games played on a Ray cluster, stored by the driver alone.

Each of ``workers`` Ray actors (a worker process somewhere on the cluster) launches the bots of the
league itself (commands, ``FILE.py:CLASS`` modules, or addresses it can reach), once, and plays
the games it is given with :func:`~rage_referee.play.game.play_game`, the code every runner uses,
``concurrency`` at a time; each game is one actor task that returns its finished game to the
driver. Only the driver stores: it calls ``on_finished`` once per game index, so a task Ray runs
again never stores a game twice, and a driver killed and run again resumes from the store.

A worker process that dies mid-game costs its games in flight one more try each: Ray restarts the
actor (which launches its bots again) and the driver sends those games again once it is back, up
to ``max_retries`` times each. One that dies while starting its bots is waited for the same way, once.

The driver owns the :class:`~rage_referee.play.game.FaultLedger`. Each game starts with a copy of it
and the driver adds the game's charged faults when it returns, so a bot forfeited by its faults
is forfeited in the games started after that; the games already in flight (at most ``workers x
concurrency``) still ask it.

A bot at an address moved by :meth:`RayRunner.readdress` (a hosted entrant's new address) is
called there by each worker from the next game the driver sends it: every game carries the moved
addresses. A message of its own would be lost when Ray restarts the worker from its constructor's
arguments, and would wait behind the games filling the worker's slots anyway. The games already in
flight keep their open streams, and reconnect to the old address until their worker's next game.

Under ``deal`` or ``game`` isolation (:mod:`.isolation`) each worker starts more processes of a
launched bot as its games need them, none playing two games of one set, and the driver sends the
games a window of sets at a time, first games first.

Commands must exist on every worker, at the same path relative to the worker's folder (the
driver's folder on a one-machine cluster; ``runtime_env={"working_dir": ...}`` ships one):
:meth:`RayRunner.__aenter__` starts every bot on every worker and names, per worker, each one
that could not start (docs/ray.md).

Submitted bots are shipped: the driver packs each built version once and puts it in Ray's object
store; every call to a worker carries the references (:mod:`.shipping`), and a worker fetches a
version only when its versions cache lacks it, checks it against its built hash and launches it
from there. With a sandbox (a league's ``[sandbox]``, a hosted referee's submitted bots) each worker
makes its own, with the league's limits, from the machine it runs on; a worker that cannot is
stopped and plays no game, and when none can the runner says why for each.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import socket
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Self, Unpack, cast

import ray
from ray.exceptions import ActorUnavailableError, RayActorError, RayError, RayTaskError

from ..play.finished import FinishedGame
from ..play.game import FaultLedger
from ..play.spec import GameSpec
from ..sandbox import Sandbox, SandboxError, SandboxSettings
from ..seats import BotHandle, BotKind, BotSpec, Dispatcher
from ..submissions.store import Submission
from .base import GameRunner, OnFailed, OnFinished, RunnerError, RunnerOptions, StartFailure
from .isolation import Isolation, Seating, interleaved
from .ray_auth import AuthError, authenticate
from .shipping import Shipment, ShippingError, cache_root, pack_version, take

log = logging.getLogger(__name__)

MAX_RETRIES = 3
"""Tries a game gets after the first when the worker playing it dies."""
RESTART_SECONDS = 120.0
RESTART_POLL = 0.5
"""How long a game waits for its restarted worker to come back, and how often it asks."""
PROBE_SECONDS = 5.0
"""How long a cluster's address may take to accept a connection."""
START_SECONDS = 300.0
"""How long the workers may take to be placed and start their bots."""


class RayRunnerError(RunnerError):
    """The cluster cannot play the league: it cannot be reached, or bots cannot start on its workers."""


@dataclass(frozen=True)
class WorkerStart:
    """What one worker says after starting its bots."""

    index: int
    host: str
    pid: int
    failed: dict[str, str]
    """Bots that could not start there, each with why."""
    refused: str | None = None
    """Why the worker cannot give the sandbox its bots need (it takes no game), or none."""
    shipped_seconds: float = 0.0
    """How long it took to take the submitted bots' versions (fetched, unpacked and checked, or cached)."""

    def where(self) -> str:
        return f"worker {self.index} (host {self.host}, pid {self.pid})"


@dataclass(frozen=True)
class SandboxPlan:
    """The sandbox a worker gives the bots it launches: the league's limits, and the folders no bot may see."""

    settings: SandboxSettings
    hidden: list[Path]


class GameWorker:
    """A Ray actor: the league's bots, started in this worker process (each bot's processes lent to its games
    as ``isolation`` says), and the games given to it.

    Submitted bots come as :class:`~.shipping.Shipment` s with each call (not as the actor's arguments,
    which Ray would have to keep to restart it), taken into this machine's versions cache at the first.
    With a ``sandbox`` every launched bot runs in this machine's sandbox, and a worker that cannot give
    one says so (:attr:`WorkerStart.refused`) and plays no game.
    """

    def __init__(
        self,
        index: int,
        bots: Sequence[BotSpec],
        log_dir: str,
        forfeited: Sequence[str],
        retry: bool,
        isolation: Isolation = Isolation.LEAGUE,
        sandbox: SandboxPlan | None = None,
    ) -> None:
        self.index = index
        self.retry = retry
        """Ask a bot that could not start again at its next decision, instead of forfeiting it."""
        self.bots = list(bots)
        self.folder = Path(log_dir) / f"worker-{index}"
        self.isolation = isolation
        self.sandbox = sandbox
        self.skipped = set(forfeited)
        self.failed: dict[str, str] = {}
        self.refused: str | None = None
        self.shipped_seconds = 0.0
        self.seating: Seating | None = None
        self._started: asyncio.Task[dict[str, str]] | None = None

    async def start(self, moved: Mapping[str, str], shipments: Sequence[Shipment] = ()) -> WorkerStart:
        """Start every bot not forfeited, those ``moved`` at their new addresses, the submitted ones from
        their ``shipments`` (once; a restarted actor starts them again when first asked)."""
        if self._started is None:
            self._started = asyncio.ensure_future(self._start(dict(moved), list(shipments)))
        self.failed = await self._started
        self.follow(moved)
        where = socket.gethostname(), os.getpid()
        return WorkerStart(self.index, *where, self.failed, self.refused, self.shipped_seconds)

    async def _start(self, moved: Mapping[str, str], shipments: Sequence[Shipment]) -> dict[str, str]:
        """The sandbox, the submitted bots' versions, then every bot's first process; the bots that could not start."""
        sandbox = None
        if self.sandbox is not None:
            try:
                sandbox = await asyncio.to_thread(Sandbox.available, self.sandbox.settings)
            except SandboxError as error:
                self.refused = str(error)
                return {}
            sandbox = replace(sandbox, hidden=[*self.sandbox.hidden, self.folder])
        failed: dict[str, str] = {}
        submissions: dict[str, Submission] = {}
        began = time.monotonic()
        for shipment in shipments:
            try:
                submissions[shipment.bot] = await take(shipment, functools.partial(_fetched, shipment), cache_root())
            except (ShippingError, OSError, RayError) as error:
                failed[shipment.bot] = " ".join(str(error).split())[:300]
        self.shipped_seconds = time.monotonic() - began
        dispatcher = Dispatcher()  # this worker's own, shared by its bots

        def handle(spec: BotSpec, log_dir: Path) -> BotHandle:
            submission = submissions.get(spec.name)
            return BotHandle(spec, log_dir, sandbox=sandbox, submission=submission, dispatcher=dispatcher)

        bots = [replace(bot, target=moved[bot.name]) if _movable(bot, moved) else bot for bot in self.bots]
        self.seating = Seating(bots, self.isolation, self.folder, handle, forfeit_on_failure=True)
        skipped = self.skipped | set(failed)
        playing = [name for name, h in self.seating.first.items() if name not in skipped and h.spec.target]
        failed.update(await self.seating.start(playing, keep_going=True))
        return failed

    def follow(self, moved: Mapping[str, str]) -> None:
        """Call each bot ``moved`` at its new address from its next connection on."""
        if self.seating is None:
            return
        for name, address in moved.items():
            handle = self.seating.first.get(name)
            if handle is not None and handle.spec.target != address:
                self.seating.readdress(name, address)

    async def play(
        self, spec: GameSpec, ledger: FaultLedger, moved: Mapping[str, str], shipments: Sequence[Shipment] = ()
    ) -> FinishedGame:
        """One game, the bots ``moved`` called at their new addresses; a bot that could not start here
        is forfeited in it (unless it is to be retried)."""
        await self.start(moved, shipments)
        if self.refused is not None or self.seating is None:
            raise RayRunnerError(f"worker {self.index} takes no game: {self.refused}")
        for name, why in {} if self.retry else self.failed.items():
            ledger.forfeit(name, f"could not start on worker {self.index}: {why}")
        return await self.seating.play(spec, ledger)

    async def stop(self) -> None:
        """Stop every bot this worker launched."""
        if self._started is not None:
            with contextlib.suppress(BaseException):
                await self._started
        if self.seating is not None:
            await self.seating.stop()


def _movable(bot: BotSpec, moved: Mapping[str, str]) -> bool:
    return bot.kind is BotKind.ADDRESS and bot.name in moved


async def _fetched(shipment: Shipment) -> bytes:
    """A shipment's packed files: fetched from the object store (a reference), or as they came."""
    files = shipment.files
    data = files if isinstance(files, bytes) else await cast(Any, files)
    assert isinstance(data, bytes)
    return data


class RayRunner(GameRunner):
    """Plays games on Ray workers; only the caller stores what finishes (see the module docstring).

    ``concurrency`` is the games each worker plays at once; the bots' logs are written on each
    worker's machine under ``log_dir``, one folder per worker (``worker-K``).
    """

    def __init__(
        self,
        bots: Sequence[BotSpec],
        ledger: FaultLedger,
        *,
        address: str | None = None,
        workers: int | None = None,
        max_retries: int = MAX_RETRIES,
        runtime_env: dict[str, Any] | None = None,
        **options: Unpack[RunnerOptions],
    ) -> None:
        super().__init__(bots, ledger, **options)
        self.address = address
        """The cluster: ``auto`` (the one Ray finds), ``HOST:PORT`` or ``ray://HOST:PORT``; none: a new one here."""
        self.workers = workers
        """Worker processes (each takes one CPU of the cluster); none: one per CPU."""
        self.max_retries = max_retries
        self.runtime_env = runtime_env
        self.moved: dict[str, str] = {}
        """Bots at addresses given a new one (:meth:`readdress`), sent with every game."""
        self._actors: list[Any] = []
        self._restarting: set[Any] = set()
        """Workers that died under a game: the next game waits until they are back."""
        self._session = False
        self._shipped: list[Shipment] = []
        """The submitted bots' versions, in the object store while the runner runs."""
        self.starts: list[WorkerStart] = []
        """What each worker playing said when it started (its bots, its time to take the versions)."""

    async def __aenter__(self) -> Self:
        if not ray.is_initialized():
            self._connect()
        cpus = int(ray.cluster_resources().get("CPU", 0))  # type: ignore[no-untyped-call]
        workers = self.workers or max(1, cpus)
        if workers > cpus:
            await self._stop_all()
            raise RayRunnerError(f"workers: {workers} asked for, but the Ray cluster has {cpus} CPUs (one per worker)")
        options = {"max_restarts": -1, "max_task_retries": 0, "max_concurrency": self.concurrency}  # retries: run()
        actor = ray.remote(GameWorker).options(num_cpus=1, **options)
        bots = list(self.bots.values())
        log_dir = str(self.log_dir.resolve())
        forfeited = sorted(self.ledger.forfeited)
        retry = self.start_failure is StartFailure.RETRY
        settings = (self.isolation, self._sandbox_plan())
        self._actors = [actor.remote(k + 1, bots, log_dir, forfeited, retry, *settings) for k in range(workers)]
        try:
            self._shipped = await self._shipments()
            started = asyncio.gather(*(self._first_start(actor) for actor in self._actors))
            starts: list[WorkerStart] = await asyncio.wait_for(started, START_SECONDS)
        except TimeoutError:
            await self._stop_all()
            raise RayRunnerError(
                f"the {workers} workers did not start their bots within {START_SECONDS:.0f} s "
                f"(is the cluster short of free CPUs or memory?)"
            ) from None
        except BaseException:
            await self._stop_all()
            raise
        starts = await self._without_refusing(starts)
        self.starts = starts
        problems = [f"{start.where()}: {name}: {why}" for start in starts for name, why in start.failed.items()]
        if problems and self.start_failure is StartFailure.RAISE:
            await self._stop_all()
            raise RayRunnerError("bots could not start on every worker: " + "; ".join(problems))
        for start in starts:
            for name, why in start.failed.items():
                self.unstarted.setdefault(name, f"{start.where()}: {why}")
                if self.start_failure is StartFailure.FORFEIT:
                    self.ledger.forfeit(name, f"could not start on {start.where()}: {why}")
        return self

    async def _shipments(self) -> list[Shipment]:
        """Each submitted bot's built version, packed once and put in the object store (module docstring)."""
        shipments = []
        for name, submission in sorted(self.submissions.items()):
            built, data = await asyncio.to_thread(pack_version, submission)
            shipments.append(Shipment(name, submission.version, built, ray.put(data)))
        return shipments

    def _sandbox_plan(self) -> SandboxPlan | None:
        """What each worker's sandbox is to be: the league's limits, hiding what the driver's hides."""
        if self.sandbox is None:
            return None
        return SandboxPlan(self.sandbox.settings, [*self.sandbox.hidden, self.log_dir.resolve()])

    async def _without_refusing(self, starts: list[WorkerStart]) -> list[WorkerStart]:
        """The starts of the workers that can give the sandbox; the others are stopped, each named in the log.

        :raises RayRunnerError: none can, each named with why.
        """
        refusing = [(actor, start) for actor, start in zip(self._actors, starts, strict=True) if start.refused]
        if not refusing:
            return starts
        if len(refusing) == len(starts):
            await self._stop_all()
            whys = "; ".join(f"{start.where()}: {start.refused}" for _, start in refusing)
            raise RayRunnerError(f"no worker can give the sandbox the bots need: {whys}")
        for actor, start in refusing:
            log.warning("%s cannot give the sandbox, and takes no game: %s", start.where(), start.refused)
            with contextlib.suppress(RayError):
                ray.kill(actor, no_restart=True)
        self._actors = [actor for actor, start in zip(self._actors, starts, strict=True) if not start.refused]
        return [start for start in starts if not start.refused]

    def _connect(self) -> None:
        connect(self.address, self.runtime_env, self.workers)
        self._session = True  # this runner's to end (a Ray of its own stops, a cluster is only left)

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self._stop_all()

    async def _stop_all(self) -> None:
        """Stop every worker's bots, then the workers (and the Ray this runner started)."""
        actors, self._actors = self._actors, []
        await asyncio.gather(*(_awaited(actor.stop.remote()) for actor in actors), return_exceptions=True)
        for actor in actors:
            with contextlib.suppress(RayError):
                ray.kill(actor, no_restart=True)
        if self._session:
            ray.shutdown()
            self._session = False

    async def run(self, specs: Iterable[GameSpec], on_finished: OnFinished, on_failed: OnFailed | None = None) -> None:
        """Play ``specs`` (taken one at a time, as slots free up), each finished game handed to ``on_finished``.

        A game whose task fails goes to ``on_failed`` (none: the error goes on); when ``on_finished``
        raises, the games in flight are cancelled and the error goes on.
        """
        free = [actor for actor in self._actors for _ in range(self.concurrency)]
        upcoming = iter(specs if self.isolation is Isolation.LEAGUE else interleaved(specs, len(free)))
        flying: dict[asyncio.Task[FinishedGame], tuple[GameSpec, Any]] = {}
        delivered: set[int] = set()
        tries: dict[int, int] = {}  # by game: how often its worker died under it
        try:
            while True:
                while free and not self.stopping:
                    spec = next(upcoming, None)
                    if spec is None:
                        break
                    actor = free.pop(0)
                    flying[asyncio.ensure_future(self._play(actor, spec))] = (spec, actor)
                if not flying:
                    return
                done, _ = await asyncio.wait(flying, return_when=asyncio.FIRST_COMPLETED)
                for task in done:
                    spec, actor = flying.pop(task)
                    try:
                        game = task.result()
                    except RayActorError as error:  # the worker died or is restarting: no result came
                        self._restarting.add(actor)
                        tried = tries[spec.game_id] = tries.get(spec.game_id, 0) + 1
                        if tried <= self.max_retries:
                            flying[asyncio.ensure_future(self._play(actor, spec))] = (spec, actor)
                            continue
                        self._failed(spec, error, on_failed)
                    except RayError as error:
                        self._failed(spec, error, on_failed)
                    else:
                        if spec.game_id not in delivered:
                            delivered.add(spec.game_id)
                            self._charge(game)
                            on_finished(game)
                    free.append(actor)
        finally:
            for task in flying:
                task.cancel()
            await asyncio.gather(*flying, return_exceptions=True)

    async def _play(self, actor: Any, spec: GameSpec) -> FinishedGame:
        """One game on ``actor`` (once it is back, if it was restarting), with the ledger as it is then."""
        if actor in self._restarting:
            await self._back(actor)
        ref = actor.play.remote(spec, self._ledger_copy(), dict(self.moved), self._shipped)
        try:
            game: FinishedGame = await _awaited(ref)
        except asyncio.CancelledError:
            with contextlib.suppress(RayError):
                ray.cancel(ref)
            raise
        return game

    async def _first_start(self, actor: Any) -> WorkerStart:
        """A worker's start; one that dies while starting its bots is waited for once, as Ray restarts it."""
        try:
            start: WorkerStart = await _awaited(actor.start.remote(dict(self.moved), self._shipped))
        except RayActorError:
            return await self._back(actor)
        return start

    async def _back(self, actor: Any) -> WorkerStart:
        """Wait until a restarted worker has started its bots again (at most :data:`RESTART_SECONDS`)."""
        deadline = asyncio.get_running_loop().time() + RESTART_SECONDS
        while True:
            try:
                start: WorkerStart = await _awaited(actor.start.remote(dict(self.moved), self._shipped))
            except ActorUnavailableError:
                if asyncio.get_running_loop().time() > deadline:
                    raise
                await asyncio.sleep(RESTART_POLL)
                continue
            self._restarting.discard(actor)
            return start

    def readdress(self, bot: str, address: str) -> None:
        """Call ``bot`` at ``address``: each game sent from now on carries it to its worker (module docstring)."""
        super().readdress(bot, address)
        if bot in self.bots:
            self.moved[bot] = address

    def _failed(self, spec: GameSpec, error: RayError, on_failed: OnFailed | None) -> None:
        failure = self._failure(spec, error)
        if on_failed is None:
            raise failure from None
        on_failed(spec, failure)

    def _failure(self, spec: GameSpec, error: RayError) -> BaseException:
        """What a failed task raised in the worker, or one line for a worker that kept dying."""
        cause = error.cause if isinstance(error, RayTaskError) else None
        if isinstance(cause, BaseException):
            return cause
        said = " ".join(str(error).split())[:300]
        return RayRunnerError(f"game {spec.game_id}: its worker died {self.max_retries + 1} times: {said}")

    def _ledger_copy(self) -> FaultLedger:
        return FaultLedger(self.ledger.max_faults, dict(self.ledger.counts), dict(self.ledger.forfeited))

    def _charge(self, game: FinishedGame) -> None:
        """Fold a game's charged faults into the driver's ledger."""
        for fault in game.figures.faults:
            if fault.charged:
                self.ledger.charge(game.figures.seats[fault.seat], fault.kind)


def connect(address: str | None, runtime_env: dict[str, Any] | None = None, cpus: int | None = None) -> None:
    """Connect this process to the Ray cluster at ``address`` (none: start a Ray of its own here, with
    ``cpus``, default the machine's); :class:`RayRunnerError` in one line when it cannot."""
    settings: dict[str, Any] = {"runtime_env": runtime_env, "log_to_driver": False, "logging_level": logging.WARNING}
    if address is not None and address != "auto":
        _check_listening(address)
        if not address.startswith("ray://"):
            try:
                authenticate(address)
            except AuthError as error:
                raise RayRunnerError(f"cannot reach the Ray cluster at {address}: {error}") from None
    try:
        if address is None:
            ray.init(num_cpus=cpus, include_dashboard=False, **settings)
        else:
            ray.init(address=address, **settings)
    except (ConnectionError, RuntimeError, ValueError) as error:
        where = address or "a new Ray on this machine"
        said = " ".join(str(error).split())
        raise RayRunnerError(f"cannot reach the Ray cluster at {where}: {said[:300]}") from None


@contextlib.contextmanager
def session(address: str | None, runtime_env: dict[str, Any] | None = None) -> Iterator[None]:
    """This process on the Ray cluster at ``address`` while the block runs (a hosted referee's lifetime):
    the runners made inside use the connection and leave it open; it ends with the block."""
    connect(address, runtime_env)
    try:
        yield
    finally:
        ray.shutdown()


def _check_listening(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Refuse a cluster address where nothing listens (Ray itself would wait there for minutes)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as error:
        raise RayRunnerError(f"cannot reach the Ray cluster at {address}: {error.strerror or error}") from None


def _awaited(ref: Any) -> asyncio.Future[Any]:
    """An ``ObjectRef`` as an asyncio future on the running loop."""
    return asyncio.wrap_future(ref.future())
