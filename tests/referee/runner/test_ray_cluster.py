"""``rage league run --ray`` against a Ray cluster started as Ray documents it (tests/helpers/ray_cluster.py): a head
started with ``ray start --head`` (token authentication on) and a worker node joined with ``ray start
--address``, each a process of its own:

- the driver finds the cluster's token and connects; a worker process SIGKILLed mid-league costs only
  a retry: the league finishes, each game stored once, with commands and with submitted bots in the
  worker node's sandbox;
- a driver without the token is told in one line what to set;
- a bot at an address moved mid-league (``RayRunner.readdress``) is called at its new address by both
  workers of the worker node from the games sent after the move;
- the hosted referee's league of submitted bots plays on the worker node, in its sandbox, and resumes
  there after the referee is stopped and started again;
- ``rage referee serve --ray``'s ladder of submitted bots plays whole duplicate sets, each on one worker of
  the worker node, in its sandbox, through a worker SIGKILLed mid-ladder.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import require
from tests.helpers.ray_cluster import RayCluster, ray_cluster

require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")

from rage_referee.hosted.ladder_book import LadderBook, LadderSet  # noqa: E402
from rage_referee.hosted.ladder_run import ladder_games  # noqa: E402
from rage_referee.hosted.registry import Registry  # noqa: E402
from rage_referee.league.store import Store  # noqa: E402
from rage_referee.matches.match import match_specs  # noqa: E402
from rage_referee.play.deals import Deals  # noqa: E402
from rage_referee.play.finished import FinishedGame  # noqa: E402
from rage_referee.play.game import FaultLedger  # noqa: E402
from rage_referee.play.spec import TimeControl  # noqa: E402
from rage_referee.runner.ray import RayRunner  # noqa: E402
from rage_referee.seats import BotProcess, BotSpec  # noqa: E402
from rage_referee.submissions.version import short_version  # noqa: E402
from rage_sdk.record import ruleset_of  # noqa: E402
from rage_sdk.replay import verify  # noqa: E402

from tests.helpers.bots import read_dump  # noqa: E402
from tests.referee.hosted.test_hosted_ladder_e2e import CONTEST, folder_of, ladder_of, offline, shown  # noqa: E402
from tests.referee.runner.test_ray_hosted import play_submitted_league_with_a_restart  # noqa: E402
from tests.referee.runner.test_ray_runner import BOTS, ROOT, league_file, stored  # noqa: E402
from tests.referee.runner.test_ray_submitted import sandbox_tools, submitted_league  # noqa: E402, F401
from tests.referee.test_referee_server import cli, referee_server  # noqa: E402

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def ray_cluster_nodes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RayCluster]:
    with ray_cluster(tmp_path_factory.mktemp("cluster")) as started:
        require(
            isinstance(started, RayCluster),
            f"a Ray cluster by `ray start` ({started})",
            "these tests start one with the `ray` command of this virtualenv (make install)",
        )
        assert isinstance(started, RayCluster)
        yield started


def league_run(file: Path, env: dict[str, str], log: Path, *args: str) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "rage_referee", "league", "run", str(file), "--standings-every", "0", *args]
    with log.open("wb") as out:
        return subprocess.Popen(argv, cwd=file.parent, stdout=out, stderr=subprocess.STDOUT, env=env)


def run_killing_a_worker(cluster: RayCluster, file: Path, *options: str) -> None:
    """``rage league run FILE --ray`` on ``cluster`` with 2 workers, one SIGKILLed once 3 games are stored."""
    log = file.parent / "run.log"
    run = league_run(file, cluster.env, log, "--ray", cluster.address, "--ray-workers", "2", *options)
    killed = None
    try:
        deadline = time.monotonic() + 240
        while run.poll() is None and time.monotonic() < deadline:
            if killed is None and len(stored(file)) >= 3 and (workers := cluster.game_workers()):
                killed = workers[0].pid
                workers[0].send_signal(signal.SIGKILL)
            time.sleep(0.1)
        assert run.wait(10) == 0, log.read_text()
    finally:
        if run.poll() is None:
            run.kill()
            run.wait(10)
    assert killed is not None, "the league ended before a worker could be killed: " + log.read_text()


def test_a_league_on_a_ray_start_cluster_finishes_each_game_once_through_a_killed_worker(
    ray_cluster_nodes: RayCluster, tmp_path: Path
) -> None:
    total = 12  # two duplicate sets; a worker is killed once 3 are stored
    dawdler = f"{sys.executable} {BOTS / 'dawdler.py'}"
    file = league_file(tmp_path, {"a": dawdler, "b": dawdler, "c": dawdler}, total, concurrency=1)
    run_killing_a_worker(ray_cluster_nodes, file)
    games = stored(file)
    assert sorted(games) == list(range(total)), "every game once, none lost"
    for game in games.values():
        assert verify(json.dumps(game.record)).ok, f"game {game.index} does not replay"
    launches = sorted(
        path.read_text().count("the referee (pid") for path in (tmp_path / "logs").glob("*/worker-*/a.log")
    )
    assert launches == [1, 2], "the killed worker came back on the worker node and launched its bots again"


@pytest.mark.usefixtures("sandbox_tools")
def test_submitted_bots_on_a_ray_start_cluster_finish_each_game_once_through_a_killed_worker(
    ray_cluster_nodes: RayCluster, tmp_path: Path
) -> None:
    total = 12
    file = submitted_league(tmp_path / "league", total)
    run_killing_a_worker(ray_cluster_nodes, file, "--logs", str(tmp_path / "league" / "logs"))
    games = stored(file)
    assert sorted(games) == list(range(total)), "every game once, none lost"
    for game in games.values():
        assert verify(json.dumps(game.record)).ok, f"game {game.index} does not replay"
        assert {bot.get("submission") for bot in game.record["meta"]["bots"]} - {None}, "its submitted bots named"
    lines = [line for log in (tmp_path / "league" / "logs").rglob("one.log") for line in log.read_text().splitlines()]
    launches = [line for line in lines if " launches " in line]
    served = {line for line in lines if line.startswith("serving on ")}
    # A bot launched on the worker as it was killed may not have served yet: its log ends at the launch.
    assert launches and all(line.endswith("(in the sandbox)") for line in launches), "launched in the sandbox"
    assert served == {"serving on unix:/run/rage/bot.sock"}, "served inside the sandbox"


SET_TOKEN = (
    "set RAY_AUTH_TOKEN to the cluster's token (`ray get-auth-token` on its head) "
    "or RAY_AUTH_TOKEN_PATH to a file holding it"
)


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({}, f"it asks for its auth token and none is set: {SET_TOKEN}"),
        ({"RAY_AUTH_TOKEN": "0" * 64}, f"it refuses the auth token set here: {SET_TOKEN}"),
        (
            {"RAY_AUTH_MODE": "disabled"},
            "it asks for its auth token, and RAY_AUTH_MODE=disabled here: set RAY_AUTH_MODE=token",
        ),
    ],
    ids=["no-token", "wrong-token", "auth-disabled"],
)
def test_a_driver_without_the_clusters_token_is_told_what_to_set(
    ray_cluster_nodes: RayCluster, tmp_path: Path, env: dict[str, str], said: str
) -> None:
    greedy = f"{ROOT / 'examples/greedy_bot.py'}:GreedyBot"
    file = league_file(tmp_path, {"a": greedy, "b": greedy, "c": greedy}, 3)
    driver = {key: value for key, value in ray_cluster_nodes.env.items() if key != "RAY_AUTH_TOKEN_PATH"}
    driver["HOME"] = str(tmp_path)  # no ~/.ray/auth_token either
    log = tmp_path / "run.log"
    run = league_run(file, {**driver, **env}, log, "--ray", ray_cluster_nodes.address)
    assert run.wait(60) != 0
    line = f"cannot run the league: cannot reach the Ray cluster at {ray_cluster_nodes.address}: {said}"
    assert line in log.read_text().splitlines(), log.read_text()
    assert "Traceback" not in log.read_text()


@pytest.fixture
def as_driver(ray_cluster_nodes: RayCluster, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process a driver of the cluster, holding its token, while the test runs; then as it was (its
    token mode, and Ray's cache of the token, left to the module-scoped Rays of other tests)."""
    import ray
    from ray._raylet import AuthenticationTokenLoader  # type: ignore[attr-defined]

    assert not ray.is_initialized()
    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)  # restored after, as the driver turns it on
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", ray_cluster_nodes.env["RAY_AUTH_TOKEN_PATH"])
    try:
        yield
    finally:
        if ray.is_initialized():
            ray.shutdown()
        monkeypatch.undo()
        AuthenticationTokenLoader.instance().reset_cache()


@pytest.mark.usefixtures("as_driver")
def test_a_hosted_league_of_submitted_bots_plays_on_the_worker_node_and_resumes_there(
    ray_cluster_nodes: RayCluster, tmp_path: Path
) -> None:
    play_submitted_league_with_a_restart(ray_cluster_nodes.address, tmp_path)  # the head has no CPU: all on the node


@pytest.mark.usefixtures("as_driver")
def test_a_bot_moved_mid_league_is_called_at_its_new_address_by_every_worker(
    ray_cluster_nodes: RayCluster, tmp_path: Path
) -> None:
    dump = tmp_path / "new.dump"  # the old address keeps serving: only the move sends games to the new one
    before = BotProcess(f"{sys.executable} {ROOT / 'examples' / 'random_bot.py'}", tmp_path / "old.log")
    recorder = shlex.join([sys.executable, str(BOTS / "recorder.py"), "--dump", str(dump)])
    after = BotProcess(recorder, tmp_path / "new.log")
    bots = [
        BotSpec.of("greedy", f"{sys.executable} {ROOT / 'examples' / 'greedy_bot.py'}"),
        BotSpec.of("heuristic", f"{sys.executable} {ROOT / 'examples' / 'heuristic_bot.py'}"),
    ]
    total, moved_after, workers = 12, 3, 2
    games = match_specs(
        ["greedy", "heuristic", "mover"], ruleset_of({"preset": "amigo"}), total, Deals.public(3), TimeControl(5000)
    )
    finished: list[FinishedGame] = []

    async def run() -> None:
        old_address, new_address = await before.start(), await after.start()
        mover = BotSpec.of("mover", old_address)
        async with RayRunner(
            [*bots, mover],
            FaultLedger(20),
            address=ray_cluster_nodes.address,
            workers=workers,
            log_dir=tmp_path / "logs",
        ) as runner:

            def on_finished(game: FinishedGame) -> None:
                finished.append(game)
                if len(finished) == moved_after:
                    runner.readdress("mover", new_address)

            await runner.run(games, on_finished)

    try:
        asyncio.run(run())
    finally:
        before.stop()
        after.stop()
    assert sorted(game.index for game in finished) == list(range(total))
    sent_after = set(range(moved_after + workers, total))  # sent in order, one game a worker at a time
    reached = {message.start.index for message in read_dump(dump) if message.HasField("start")}
    assert sent_after <= reached, "every game sent after the move was played at the new address"
    assert reached <= set(range(moved_after, total)), "none finished before the move"


@pytest.mark.usefixtures("sandbox_tools")
def test_a_ladder_of_submitted_bots_plays_whole_sets_on_the_worker_node_through_a_killed_worker(
    ray_cluster_nodes: RayCluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``rage referee serve --ray`` with 2 workers a league; a ladder of 2 sets at once on the worker node's 2
    CPUs, each set on one worker of its own, a worker SIGKILLed once mid-ladder; then paused: every set
    whole but those the pause cut (finished on resuming), each game stored once and at its version."""
    tmp_path.chmod(0o755)
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", ray_cluster_nodes.env["RAY_AUTH_TOKEN_PATH"])  # the referee's
    database = f"sqlite:///{tmp_path / 'referee' / 'contest.sqlite'}"
    contest = tmp_path / "contest.toml"
    contest.write_text(CONTEST)
    options = ("--ray", ray_cluster_nodes.address, "--ray-workers", "2")
    with referee_server(tmp_path / "referee", database, *options) as referee:
        versions = {}
        for name, owner in LADDER_OWNERS.items():
            folder = folder_of(tmp_path, name)
            (folder / "bot.py").write_text((folder / "bot.py").read_text() + f"\n# {name}\n")  # a version its own
            result = cli(referee, referee.entry, "submit", str(folder), "--name", name, "--owner", owner)
            assert result.exit_code == 0, result.output
            versions[name] = re.search(rf"^{name}: version (\S+) ", result.stderr, re.M)[1]  # type: ignore[index]
        assert cli(referee, referee.admin, "create", str(contest)).exit_code == 0
        assert cli(referee, referee.admin, "start", "open").exit_code == 0
        killed = None
        deadline = time.monotonic() + LADDER_TIMEOUT
        while ladder_of(referee)["sets"] < LADDER_SETS:
            assert time.monotonic() < deadline, f"{LADDER_SETS} sets never ended: {referee.log.read_text()[-3000:]}"
            if killed is None and len(ladder_stored(database)[0]) >= 3:
                if workers := ray_cluster_nodes.game_workers():
                    killed = workers[0].pid
                    workers[0].send_signal(signal.SIGKILL)
            time.sleep(0.2)
        assert killed is not None, "the ladder played its sets before a worker could be killed"
        assert cli(referee, referee.admin, "pause", "open").exit_code == 0
        stored_then = -1
        while stored_then != len(ladder_stored(database)[0]):  # the games in flight end; no new one starts
            stored_then = len(ladder_stored(database)[0])
            time.sleep(1.0)
        shown_now, (rows, _) = shown(ladder_of(referee)), offline(database)
        log = referee.log.read_text()
    assert shown_now == rows, "the leaderboard is the one its stored games give"
    games, sets = ladder_stored(database)
    assert len(games) == len({game.index for game in games}), "no game stored twice"
    by_index = {game.index: game for game in games}
    cut = [s for s in sets if not set(s.indices) <= set(by_index)]
    assert len(sets) - len(cut) >= LADDER_SETS and len(cut) <= 2, "every set whole, but those the pause cut"
    assert set(by_index) <= {index for s in sets for index in s.indices}, "each game one of a set in the book"
    for ladder_set in sets:
        seed = next((by_index[i].seed for i in ladder_set.indices if i in by_index), 0)
        for planned in ladder_games(ladder_set, seed):
            if (game := by_index.get(planned.index)) is None:
                continue
            assert game.figures.seats == planned.seats, f"game {game.index} seated as its set's plan says"
            assert verify(json.dumps(game.record)).ok, f"game {game.index} does not replay"
            seats = zip(game.figures.seats, game.record["meta"]["bots"], strict=True)
            named = {bot: short_version(seat["submission"]) for bot, seat in seats}
            assert named == {bot: versions[bot] for bot in ladder_set.bots}, "each bot at its submitted version"
    assert not re.search(r"game \d+ failed", log), "the killed worker's game was played again, none failed"
    assert "ladders: one worker a set" in " ".join(log.split())
    folder = tmp_path / "referee" / "contest.submissions" / ".logs" / "open"
    logs = list(folder.rglob("*.log"))
    assert {path.relative_to(folder).parts[0] for path in logs} == {"worker-1"}, "each set on one worker"
    lines = [line for path in logs for line in path.read_text().splitlines()]
    launches = [line for line in lines if " launches " in line]
    assert launches and all(line.endswith("(in the sandbox)") for line in launches), "launched in the sandbox"
    assert {line for line in lines if line.startswith("serving on ")} == {"serving on unix:/run/rage/bot.sock"}


LADDER_OWNERS = {"ann": "north", "bob": "east", "cat": "south", "dan": "west"}
LADDER_SETS = 6
LADDER_TIMEOUT = 180.0


def ladder_stored(database: str) -> tuple[list[FinishedGame], list[LadderSet]]:
    """The ladder's stored games, with their records, and the sets of its book."""
    store = Store(database, create=False)
    try:
        league_id = Registry(store.engine).league("open").league_id
        return store.games(league_id), LadderBook(store.engine).sets(league_id)
    finally:
        store.close()
