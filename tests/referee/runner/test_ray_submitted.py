"""Submitted bots on Ray workers (runner/shipping.py, RayRunner):

- a league of submitted bots in the sandbox plays on Ray the games a local run plays (the same records,
  versions, faults and forfeits), each bot's built version taken by the worker from the object store and
  run in the worker's sandbox;
- a worker takes a version only when its files give the built hash, from its cache when it holds it;
- a worker that cannot give the sandbox says so and plays no game; the driver plays on the others, and when
  none can, refuses in one line naming each.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rage_referee.submissions.manifest import load_manifest
from rage_referee.submissions.store import Submission

from tests.conftest import require, require_command
from tests.referee.runner.test_ray_runner import stored, without_timing
from tests.referee.test_sandbox import RANDOM, submission

require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")

from rage_referee.play.game import FaultLedger  # noqa: E402
from rage_referee.runner.ray import GameWorker, RayRunnerError, SandboxPlan  # noqa: E402
from rage_referee.runner.shipping import Shipment, ShippingError, pack_version, take  # noqa: E402
from rage_referee.sandbox import Sandbox, SandboxError, SandboxSettings  # noqa: E402
from rage_referee.seats import BotKind, BotSpec  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def sandbox_tools() -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")


def submitted_league(folder: Path, games: int) -> Path:
    """Two submitted bots, one a blunderer (faults to count), and a command, in the sandbox, a fresh process a game."""
    folder.mkdir(mode=0o755, parents=True)
    submission(folder / "one")
    blunder = submission(folder / "two", build="python -m compileall -q . && echo built > built.txt")
    code = (ROOT / "tests" / "bots" / "blunder.py").read_text()
    (blunder / "bot.py").write_text(f"{code}\n\nfrom rage_sdk.server import main\n\nmain(BlunderBot)\n")
    lines = ['name = "shipped"', "players = 3", f"games = {games}", "seed = 5", "concurrency = 2"]
    lines += ['isolation = "game"', 'database = "data/league.sqlite"']
    lines += ["[ruleset]", 'preset = "amigo"', "rounds = [3, 2]", "[sandbox]", "enabled = true", "[bots]"]
    lines += ['one = "submission:one"', 'two = "submission:two"', f'random = "python {RANDOM}"']
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def league_run(path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rage_referee", "league", "run", str(path), "--standings-every", "0"]
    command += ["--logs", str(path.parent / "logs"), *options]
    return subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.slow
@pytest.mark.usefixtures("sandbox_tools")
def test_submitted_bots_play_on_ray_workers_in_their_sandbox_as_they_play_locally(
    ray_address: str, tmp_path: Path
) -> None:
    local, remote = submitted_league(tmp_path / "local", 6), submitted_league(tmp_path / "ray", 6)
    here = league_run(local)
    assert here.returncode == 0, here.stderr[-2000:]
    there = league_run(remote, "--ray", ray_address, "--ray-workers", "2")
    assert there.returncode == 0, there.stderr[-2000:]
    pinned = re.compile(r"(one|two): submitted rnd, version ([0-9a-f]{16})")
    versions = pinned.findall(here.stdout)
    assert len(versions) == 2 and versions == pinned.findall(there.stdout), "the same versions pinned"
    played = f"submitted bots' versions: one {versions[0][1]}, two {versions[1][1]}"
    assert played in here.stdout and played in there.stdout
    mine, theirs = stored(local), stored(remote)
    assert sorted(mine) == sorted(theirs) == list(range(6))
    for index, game in mine.items():
        twin = theirs[index]
        assert json.dumps(without_timing(twin.record)) == json.dumps(without_timing(game.record))
        assert (twin.figures.seats, twin.figures.totals, twin.figures.faults) == (
            game.figures.seats,
            game.figures.totals,
            game.figures.faults,
        )
    sandboxed = [log for log in (tmp_path / "ray" / "logs").rglob("worker-*/**/one.log")]
    assert sandboxed and all("serving on unix:/run/rage/bot.sock" in log.read_text() for log in sandboxed)


def shipment_of(folder: Path, bot: str = "rnd") -> tuple[Submission, Shipment]:
    sub = Submission(load_manifest(folder), "sha256:" + "ab" * 32, folder)
    built, data = pack_version(sub)
    return sub, Shipment(bot, sub.version, built, data)


def test_a_worker_takes_a_version_whose_files_give_its_hash_once_then_from_its_cache(tmp_path: Path) -> None:
    _, shipment = shipment_of(submission(tmp_path / "bot"))
    fetched: list[int] = []

    async def fetch() -> bytes:
        fetched.append(1)
        assert isinstance(shipment.files, bytes)
        return shipment.files

    cache = tmp_path / "cache"
    first = asyncio.run(take(shipment, fetch, cache))
    second = asyncio.run(take(shipment, fetch, cache))
    assert first.folder == second.folder and first.folder.is_relative_to(cache)
    assert (first.folder / "bot.py").read_bytes() == RANDOM.read_bytes()
    assert len(fetched) == 1, "the second worker of the machine takes it from the cache"
    (first.folder / "bot.py").write_text("print('changed')\n")
    third = asyncio.run(take(shipment, fetch, cache))
    assert len(fetched) == 2, "a cached copy that no longer gives the hash is fetched again"
    assert (third.folder / "bot.py").read_bytes() == RANDOM.read_bytes()


def test_workers_of_one_machine_taking_a_version_at_once_fetch_it_once(tmp_path: Path) -> None:
    _, shipment = shipment_of(submission(tmp_path / "bot"))
    fetched: list[int] = []

    async def fetch() -> bytes:
        fetched.append(1)
        await asyncio.sleep(0.2)  # a fetch over the network: the other worker asks meanwhile
        assert isinstance(shipment.files, bytes)
        return shipment.files

    async def both() -> list[Submission]:
        return await asyncio.gather(*(take(shipment, fetch, tmp_path / "cache") for _ in range(2)))

    first, second = asyncio.run(both())
    assert len(fetched) == 1, "the second waits for the first, then takes its copy"
    assert first.folder == second.folder and (first.folder / "bot.py").read_bytes() == RANDOM.read_bytes()


def test_a_version_whose_files_do_not_give_its_hash_is_refused(tmp_path: Path) -> None:
    _, shipment = shipment_of(submission(tmp_path / "bot"))
    _, other = shipment_of(submission(tmp_path / "other", build="true"))
    forged = Shipment(shipment.bot, shipment.version, shipment.built, other.files)

    async def fetch() -> bytes:
        assert isinstance(forged.files, bytes)
        return forged.files

    with pytest.raises(ShippingError) as caught:
        asyncio.run(take(forged, fetch, tmp_path / "cache"))
    assert str(caught.value) == (
        f"version abababababababab: the files shipped do not give its built hash {shipment.built[7:23]}"
    )
    kept = [path.name for path in (tmp_path / "cache" / "rnd").iterdir()]
    assert kept == [f".{shipment.built[7:23]}.lock"], "nothing kept but the lock"


def test_a_worker_that_cannot_give_the_sandbox_says_so_and_plays_no_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(settings: SandboxSettings) -> None:
        raise SandboxError("the sandbox needs bwrap: install it (apt-get install bubblewrap)")

    monkeypatch.setattr(Sandbox, "available", staticmethod(refuse))
    bots = [BotSpec("one", f"python {RANDOM}", BotKind.COMMAND)]
    worker = GameWorker(1, bots, str(tmp_path), [], False, sandbox=SandboxPlan(SandboxSettings(enabled=True), []))

    async def run() -> None:
        start = await worker.start({})
        assert start.refused == "the sandbox needs bwrap: install it (apt-get install bubblewrap)"
        assert start.failed == {} and worker.seating is None, "no bot started"
        with pytest.raises(RayRunnerError, match="worker 1 takes no game: the sandbox needs bwrap"):
            await worker.play(None, FaultLedger(1), {})  # type: ignore[arg-type]

    asyncio.run(run())


def test_the_driver_plays_on_the_workers_that_give_the_sandbox_and_refuses_when_none_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from rage_referee.runner import ray as ray_module
    from rage_referee.runner.ray import RayRunner, WorkerStart

    killed: list[str] = []
    monkeypatch.setattr(ray_module.ray, "kill", lambda actor, no_restart: killed.append(actor))
    why = "this machine refuses the sandbox: bwrap: No permissions to create new namespace"
    runner = RayRunner([BotSpec("one", f"python {RANDOM}", BotKind.COMMAND)], FaultLedger(1))
    stopped: list[bool] = []

    async def stop_all() -> None:
        stopped.append(True)

    monkeypatch.setattr(runner, "_stop_all", stop_all)
    starts = [WorkerStart(1, "node-a", 11, {}), WorkerStart(2, "node-b", 22, {}, refused=why)]
    runner._actors = ["actor-1", "actor-2"]
    assert asyncio.run(runner._without_refusing(starts)) == starts[:1]
    assert (runner._actors, killed, stopped) == (["actor-1"], ["actor-2"], [])
    runner._actors = ["actor-2"]
    with pytest.raises(RayRunnerError) as caught:
        asyncio.run(runner._without_refusing(starts[1:]))
    assert str(caught.value) == f"no worker can give the sandbox the bots need: worker 2 (host node-b, pid 22): {why}"
    assert stopped == [True]
