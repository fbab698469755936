"""RayRunner on a real single-node Ray, started once for the module: the same games as a local run,
bots that cannot start named per worker, and a worker killed mid-game costing only a retry."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import json
import signal
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.league.config import load_league
from rage_referee.league.store import Store, StoreError
from rage_referee.matches.match import duplicate_specs, match_specs
from rage_referee.play.deals import Deals
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.runner import Isolation, LocalRunner, StartFailure
from rage_referee.seats import BotSpec
from rage_sdk.record import ruleset_of
from rage_sdk.replay import verify
from typer.testing import CliRunner

from tests.conftest import require
from tests.helpers.league import kill_league_run

require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")

import psutil  # noqa: E402
from rage_referee.runner.ray import RayRunner, RayRunnerError  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
BOTS = ROOT / "tests" / "bots"
WORKER_TITLE = "ray::GameWorker"


def specs(names: Sequence[str], games: int) -> list[GameSpec]:
    return match_specs(list(names), ruleset_of({"preset": "amigo"}), games, Deals.public(7), TimeControl(5000))


def names(bots: Sequence[BotSpec]) -> list[str]:
    return [bot.name for bot in bots]


def without_timing(record: dict[str, Any]) -> dict[str, Any]:
    """A record less what differs between two runs of one game: when it started and how long each decision took."""
    meta = {key: value for key, value in record["meta"].items() if key not in ("date", "bid_ms")}
    rounds = [
        {**round_, "plays": [{k: v for k, v in play.items() if k != "ms"} for play in round_["plays"]]}
        for round_ in record["rounds"]
    ]
    return {**record, "meta": meta, "rounds": rounds}


async def on_ray(
    bots: Sequence[BotSpec], games: Sequence[GameSpec], tmp_path: Path, **settings: Any
) -> list[FinishedGame]:
    finished: list[FinishedGame] = []
    async with RayRunner(bots, FaultLedger(20), log_dir=tmp_path / "logs", **settings) as runner:
        await runner.run(games, finished.append)
    return finished


async def locally(bots: Sequence[BotSpec], games: Sequence[GameSpec], tmp_path: Path) -> list[FinishedGame]:
    finished: list[FinishedGame] = []
    async with LocalRunner(bots, FaultLedger(20), 2, tmp_path / "local-logs") as runner:
        await runner.run(games, finished.append)
    return finished


MIXED = [  # by absolute path: a league file's bots are read from its own folder
    BotSpec.of("random", f"python {ROOT / 'examples/random_bot.py'}"),
    BotSpec.of("greedy", f"{ROOT / 'examples/greedy_bot.py'}:GreedyBot"),
    BotSpec.of("heuristic", f"{ROOT / 'examples/heuristic_bot.py'}:HeuristicBot"),
]


def test_ray_plays_the_games_a_local_run_plays(ray_address: str, tmp_path: Path) -> None:
    games = specs(names(MIXED), 6)
    remote = asyncio.run(on_ray(MIXED, games, tmp_path, workers=2, concurrency=2))
    local = asyncio.run(locally(MIXED, games, tmp_path))
    assert sorted(game.index for game in remote) == list(range(6)), "each game once"
    by_id = {game.index: game for game in remote}
    for game in local:
        twin = by_id[game.index]
        assert without_timing(twin.record) == without_timing(game.record)
        assert (twin.figures.totals, twin.figures.places, twin.figures.faults) == (
            game.figures.totals,
            game.figures.places,
            game.figures.faults,
        )


def test_a_bot_that_cannot_start_is_named_for_every_worker(ray_address: str, tmp_path: Path) -> None:
    bots = [*MIXED[1:], BotSpec.of("ghost", f"python {tmp_path}/missing_bot.py")]
    with pytest.raises(RayRunnerError) as caught:
        asyncio.run(on_ray(bots, specs(names(bots), 1), tmp_path, workers=2))
    message = str(caught.value)
    assert "\n" not in message
    for worker in ("worker 1", "worker 2"):
        assert f"{worker} (host " in message
    assert message.count("ghost: ") == 2 and "missing_bot.py" in message
    assert "greedy" not in message and "heuristic" not in message


def test_keep_going_forfeits_a_bot_that_cannot_start_on_a_worker(ray_address: str, tmp_path: Path) -> None:
    bots = [*MIXED[1:], BotSpec.of("ghost", f"python {tmp_path}/missing_bot.py")]
    games = asyncio.run(
        on_ray(bots, specs([bot.name for bot in bots], 3), tmp_path, start_failure=StartFailure.FORFEIT)
    )
    assert len(games) == 3
    for game in games:
        ghost = game.figures.seats.index("ghost")
        mine = [fault for fault in game.figures.faults if fault.seat == ghost]
        assert mine and all(not fault.charged and "could not start on worker 1" in fault.detail for fault in mine)


def test_the_drivers_ledger_takes_each_games_faults_and_forfeits_from_the_next_game(
    ray_address: str, tmp_path: Path
) -> None:
    bots = [*MIXED[1:], BotSpec.of("blunder", f"{BOTS / 'blunder.py'}:BlunderBot")]
    ledger = FaultLedger(30)
    finished: list[FinishedGame] = []

    async def run() -> None:
        async with RayRunner(bots, ledger, log_dir=tmp_path / "logs", workers=1) as runner:
            await runner.run(specs(names(bots), 4), finished.append)

    asyncio.run(run())
    charged = [
        sum(f.charged for f in game.figures.faults if game.figures.seats[f.seat] == "blunder") for game in finished
    ]
    assert ledger.counts["blunder"] == sum(charged), "every charged fault counted once by the driver"
    assert "blunder" in ledger.forfeited and charged[0] < 30
    last = finished[-1]
    seat = last.figures.seats.index("blunder")
    assert charged[-1] == 0 and all(not f.charged for f in last.figures.faults if f.seat == seat), (
        "forfeited from the start"
    )


def game_workers() -> list[psutil.Process]:
    """This module's Ray workers (its Ray's processes descend from this one; others' Rays are left alone)."""
    found = []
    for process in psutil.Process().children(recursive=True):
        try:
            if " ".join(process.cmdline()).startswith(WORKER_TITLE):
                found.append(process)
        except psutil.Error:
            continue
    return found


DAWDLERS = [BotSpec.of(name, f"python {BOTS / 'dawdler.py'}") for name in ("a", "b", "c")]


def play_killing_a_worker(
    tmp_path: Path, games: Sequence[GameSpec], **settings: Any
) -> tuple[list[FinishedGame], list[tuple[GameSpec, BaseException]], bool]:
    """Play ``games`` on two workers, SIGKILLing one of them once two games have finished (mid-game).

    Returns the finished games, the failed ones with their errors, and whether a worker was killed.
    """
    finished: list[FinishedGame] = []
    failed: list[tuple[GameSpec, BaseException]] = []
    killed: list[int] = []

    def kill_one_worker_mid_game() -> None:
        deadline = time.monotonic() + 120
        while len(finished) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = game_workers()
        if workers and len(finished) + len(failed) < len(games):
            killed.append(workers[0].pid)
            workers[0].send_signal(signal.SIGKILL)

    async def run() -> None:
        logs = tmp_path / "logs"
        async with RayRunner(DAWDLERS, FaultLedger(20), log_dir=logs, workers=2, **settings) as runner:
            killer = threading.Thread(target=kill_one_worker_mid_game)
            killer.start()
            try:
                await runner.run(games, finished.append, lambda spec, error: failed.append((spec, error)))
            finally:
                killer.join()

    asyncio.run(run())
    return finished, failed, bool(killed)


@pytest.mark.slow
def test_a_worker_killed_mid_game_costs_only_that_games_retry(ray_address: str, tmp_path: Path) -> None:
    games = specs(names(DAWDLERS), 8)
    finished, failed, killed = play_killing_a_worker(tmp_path, games)
    assert killed, "the league ended before a worker could be killed"
    launches = sorted(path.read_text().count("the referee (pid") for path in (tmp_path / "logs").glob("worker-*/a.log"))
    assert launches == [1, 2], "the killed worker's actor came back and launched its bots again"
    assert not failed
    assert sorted(game.index for game in finished) == list(range(len(games))), "every game once, none lost"
    for game in finished:
        assert verify(json.dumps(game.record)).ok, f"game {game.index} does not replay"
        assert game.record["meta"]["game"] == game.index


@pytest.mark.slow
def test_a_game_whose_worker_dies_past_its_retries_fails_in_one_line(ray_address: str, tmp_path: Path) -> None:
    games = specs(names(DAWDLERS), 6)
    finished, failed, killed = play_killing_a_worker(tmp_path, games, max_retries=0)
    assert killed, "the league ended before a worker could be killed"
    assert len(failed) == 1, "the one game the killed worker was playing"
    spec, error = failed[0]
    assert isinstance(error, RayRunnerError)
    assert str(error).startswith(f"game {spec.game_id}: its worker died 1 times: ") and "\n" not in str(error)
    played = sorted(game.index for game in finished)
    assert played == sorted(set(range(6)) - {spec.game_id}), "the other games all finish, once each"


@pytest.mark.slow
def test_a_worker_killed_while_it_starts_its_bots_is_waited_for_and_plays(ray_address: str, tmp_path: Path) -> None:
    dawdler = f"{sys.executable} {BOTS / 'dawdler.py'}"
    slow = BotSpec.of("a", f"sh -c 'sleep 2 && exec {dawdler} --port {{port}}'")  # serves 2 s after its launch
    games = specs(names(DAWDLERS), 3)
    finished: list[FinishedGame] = []
    killed: list[int] = []

    def kill_the_worker_as_it_starts() -> None:
        deadline = time.monotonic() + 60
        while not killed and time.monotonic() < deadline:
            if game_workers():
                time.sleep(0.5)  # its bot "a" is not serving yet
                for worker in game_workers():  # listed again: an earlier test's worker may have ended meanwhile
                    with contextlib.suppress(psutil.NoSuchProcess):
                        worker.send_signal(signal.SIGKILL)
                        killed.append(worker.pid)
                        break
            time.sleep(0.05)

    async def run() -> None:
        killer = threading.Thread(target=kill_the_worker_as_it_starts)
        killer.start()
        try:
            bots = [slow, *DAWDLERS[1:]]
            async with RayRunner(bots, FaultLedger(20), log_dir=tmp_path / "logs", workers=1) as runner:
                await runner.run(games, finished.append)
        finally:
            killer.join()

    asyncio.run(run())
    assert killed, "no worker to kill"
    assert sorted(game.index for game in finished) == [0, 1, 2], "the restarted worker played every game"
    assert all(not game.figures.faults for game in finished), "its bots all started again"


# --------------------------------------------------------------------------- rage league run --ray


def league_file(folder: Path, bots: dict[str, str], games: int, concurrency: int = 2) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        'name = "on-ray"',
        "players = 3",
        f"games = {games}",
        "seed = 11",
        f"concurrency = {concurrency}",
        'database = "league.sqlite"',
        "[ruleset]",
        'preset = "amigo"',
        "[bots]",
        *(f'{name} = "{target}"' for name, target in bots.items()),
    ]
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def stored(file: Path) -> dict[int, FinishedGame]:
    """The league's games stored so far, by index (none before its first run has made the league)."""
    config = load_league(file)
    if not (file.parent / config.database).exists():
        return {}
    store = Store(config.database_url(file.parent))
    try:
        return {game.index: game for game in store.games(store.league(config.name, create=False))}
    except StoreError:
        return {}
    finally:
        store.close()


def league_run(file: Path, *args: str) -> Any:
    return CliRunner().invoke(app, ["league", "run", str(file), "--standings-every", "0", *args])


def test_a_league_on_ray_stores_what_a_local_run_stores(ray_address: str, tmp_path: Path) -> None:
    bots = {bot.name: bot.target for bot in MIXED}
    on_ray_file, local_file = league_file(tmp_path / "ray", bots, 12), league_file(tmp_path / "local", bots, 12)
    result = league_run(on_ray_file, "--ray", ray_address)
    assert result.exit_code == 0, result.output
    assert f"games on the Ray cluster at {ray_address}" in " ".join(result.output.split())
    assert league_run(local_file).exit_code == 0
    remote, local = stored(on_ray_file), stored(local_file)
    assert sorted(remote) == sorted(local) == list(range(12))
    for index, game in local.items():
        twin = remote[index]
        assert json.dumps(without_timing(twin.record)) == json.dumps(without_timing(game.record))
        assert (twin.figures.seats, twin.seed, twin.figures.totals, twin.figures.faults) == (
            game.figures.seats,
            game.seed,
            game.figures.totals,
            game.figures.faults,
        )


@pytest.mark.slow
def test_a_league_on_ray_whose_driver_is_killed_resumes(ray_address: str, tmp_path: Path) -> None:
    total = 6  # one duplicate set: killed after 3 stored, one game at a time
    dawdler = f"python {BOTS / 'dawdler.py'}"
    file = league_file(tmp_path, {"a": dawdler, "b": dawdler, "c": dawdler}, total, concurrency=1)
    argv = ["league", "run", str(file), "--ray", ray_address]
    kill_league_run(argv, tmp_path, lambda: len(stored(file)), 3, 120)
    before = stored(file)
    assert 3 <= len(before) < total
    result = league_run(file, "--ray", ray_address)
    assert result.exit_code == 0, result.output
    assert f"{len(before)} of {total} games stored already" in " ".join(result.output.split())
    after = stored(file)
    assert sorted(after) == list(range(total)), "every game once, none lost"
    for index, game in before.items():
        assert after[index].record == game.record, "a game stored before the kill is not played again"
    assert no_process_left("dawdler.py"), "the killed driver's workers and bots are gone"


def no_process_left(fragment: str, seconds: float = 15) -> bool:
    """Whether, within ``seconds``, no process has ``fragment`` in its command line (bots watch for their referee)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not any(fragment in " ".join(p.info["cmdline"] or ()) for p in psutil.process_iter(["cmdline"])):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.slow
@pytest.mark.parametrize(
    ("isolation", "concurrency", "knows"), [(Isolation.LEAGUE, 1, True), (Isolation.DEAL, 3, False)]
)
def test_workers_keep_a_sets_games_in_processes_apart_under_deal_isolation(
    ray_address: str, tmp_path: Path, isolation: Isolation, concurrency: int, knows: bool
) -> None:
    bots = [BotSpec.of("mem", f"python {BOTS / 'rememberer.py'} --budget-ms 2"), MIXED[0]]
    ruleset = ruleset_of({"preset": "amigo", "rounds": [3, 2]})
    games = duplicate_specs(names(bots), ruleset, 8, Deals.public(5), TimeControl(5000))
    finished = asyncio.run(on_ray(bots, games, tmp_path, workers=1, concurrency=concurrency, isolation=isolation))
    assert sorted(game.index for game in finished) == list(range(8))
    logs = list((tmp_path / "logs" / "worker-1").rglob("mem.log"))
    knew = sum(log.read_text().count("rememberer: knew every hand") for log in logs)
    assert (knew, len(logs)) == ((4 * 2, 1) if knows else (0, 2))  # 4 sets' second games, 2 rounds each
