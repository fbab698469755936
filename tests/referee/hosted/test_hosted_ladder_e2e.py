"""A hosted ladder end to end: ``rage referee serve`` as its own process, submitted bots in the sandbox.

Five bots of four owners submitted through ``rage referee submit``, one of which crashes at every start;
``rage referee create`` of a contest file and ``start``; one bot resubmitted while the ladder runs; the
leaderboard (``rage referee standings``); the referee killed with SIGKILL mid-ladder and started again:
the leaderboard it gives is the one its stored games give (the same ratings), no game is lost or played
twice, and matchmaking goes on; ``rage referee finalize``, the final's standings, ``rage referee export``
and ``rage league verify-bundle`` on the bundle.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.hosted.ladder_book import LadderBook
from rage_referee.hosted.ladder_definition import ladder_definition
from rage_referee.hosted.ladder_run import ladder_games, read_state
from rage_referee.hosted.registry import Registry
from rage_referee.league.store import Store
from rage_referee.seats import free_port
from rage_sdk.pb import referee_pb2 as pb

from tests.conftest import require, require_command
from tests.helpers.hosted import named
from tests.referee.hosted.test_hosted_submissions import EXAMPLES, MANIFEST
from tests.referee.test_referee_server import Referee, cli, referee_server, runner

pytestmark = pytest.mark.slow

CONTEST = """
name = "open"
players = 2

[ruleset]
preset = "amigo"
rounds = [1]

[time]
decision_ms = 3000

[ladder]
concurrency = 2
placement_sets = 2
"""
CRASHING = 'name = "crash"\nruntime = "python"\nrun = "python -c \'raise SystemExit(3)\'"\n'
OWNERS = {"ann": "north", "bob": "east", "cat": "south", "dan": "north", "crash": "west"}
TIMEOUT = 240.0


def folder_of(tmp_path: Path, name: str, manifest: str = MANIFEST) -> Path:
    folder = tmp_path / "bots" / name
    folder.mkdir(mode=0o755, parents=True)
    shutil.copy(EXAMPLES / "random_bot.py", folder / "bot.py")
    (folder / "rage-bot.toml").write_text(named(manifest, name))
    return folder


def ladder_of(referee: Referee) -> dict[str, Any]:
    result = cli(referee, referee.entry, "standings", "open", "--format", "json")
    assert result.exit_code == 0, result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def until(referee: Referee, check: Any, what: str) -> dict[str, Any]:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        document = ladder_of(referee)
        if check(document):
            return document
        time.sleep(0.5)
    raise AssertionError(f"{what}: never, the ladder is {document}; log: {referee.log.read_text()[-3000:]}")


def offline(database: str) -> tuple[list[tuple[Any, ...]], int]:
    """The leaderboard as the database's stored games give it, read without the referee, and its sets."""
    store = Store(database, create=False)
    try:
        registry = Registry(store.engine)
        entry = registry.league("open")
        settings = ladder_definition(entry.definition, "open").settings
        state = read_state(store, LadderBook(store.engine), registry, entry.league_id, settings)
    finally:
        store.close()
    rows = [(r.key, r.status, round(r.rating.mu, 3), round(r.rating.sigma, 3), r.rating.sets) for r in state.rows]
    return rows, state.sets


def stored_games(database: str) -> tuple[list[Any], list[Any]]:
    """The ladder's stored games and the sets of its book."""
    store = Store(database, create=False)
    try:
        league_id = Registry(store.engine).league("open").league_id
        return store.games(league_id, False), LadderBook(store.engine).sets(league_id)
    finally:
        store.close()


def shown(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(f"{r['bot']}@{r['version']}", r["status"], r["mu"], r["sigma"], r["sets"]) for r in document["rows"]]


def page(port: int, path: str, token: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def pages(port: int, tokens: dict[str, str], games: list[Any]) -> None:
    """The live pages of the (paused) ladder: its leaderboard, a bot's versions with their ratings, and a
    game's log of a submitted bot for its owner alone."""
    status, text = page(port, "/leagues/open/index.html", tokens["cat"])
    assert status == 200 and "Leaderboard" in text
    for bot in OWNERS:
        assert f'data-bot="{bot}"' in text
    status, text = page(port, "/leagues/open/bots/bob.html", tokens["cat"])
    assert status == 200 and text.count("retired: rating") == 1 and "sets" in text
    game = max(g.index for g in games if "ann" in g.figures.seats and g.index in shown_games(games))
    status, text = page(port, f"/leagues/open/logs/ann/{game:05d}.html", tokens["ann"])
    assert status == 200 and "bot-log" in text, text[:500]
    status, text = page(port, f"/leagues/open/logs/ann/{game:05d}.html", tokens["cat"])
    assert status == 403, text
    status, text = page(port, f"/leagues/open/games/{game:05d}.html", tokens["ann"])
    assert status == 200 and "ann" in text


def shown_games(games: list[Any]) -> set[int]:
    """The games whose duplicate set is stored whole (two games at two seats)."""
    sizes: dict[int, int] = {}
    for game in games:
        sizes[game.set_id] = sizes.get(game.set_id, 0) + 1
    return {game.index for game in games if sizes[game.set_id] == 2}


def test_a_hosted_ladder_from_submissions_to_a_verified_final(tmp_path: Path) -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    tmp_path.chmod(0o755)
    database = f"sqlite:///{tmp_path / 'referee' / 'contest.sqlite'}"
    contest = tmp_path / "contest.toml"
    contest.write_text(CONTEST)
    http = free_port()
    with referee_server(tmp_path / "referee", database, "--http", str(http)) as referee:
        tokens = {}
        for name, owner in OWNERS.items():
            folder = folder_of(tmp_path, name, CRASHING if name == "crash" else MANIFEST)
            result = cli(referee, referee.entry, "submit", str(folder), "--name", name, "--owner", owner)
            assert result.exit_code == 0, result.output
            tokens[name] = result.stdout.strip()
        created = cli(referee, referee.admin, "create", str(contest))
        assert created.exit_code == 0 and "open: created, ladder" in created.stdout, created.output
        assert cli(referee, referee.admin, "start", "open").exit_code == 0

        until(referee, lambda d: d["sets"] >= 6 and any(r["status"] == "failed" for r in d["rows"]), "six sets")
        bob = tmp_path / "bots" / "bob"
        (bob / "bot.py").write_text((bob / "bot.py").read_text() + "\n# version two\n")
        again = cli(referee, tokens["bob"], "submit", str(bob), "--name", "bob")
        assert again.exit_code == 0, again.output
        before = until(
            referee,
            lambda d: sum(r["bot"] == "bob" and r["sets"] > 0 for r in d["rows"]) == 2,
            "bob's second version plays",
        )
        statuses = {(r["bot"], r["status"]) for r in before["rows"]}
        assert ("crash", "failed") in statuses and ("bob", "retired") in statuses

        referee.kill()  # mid-ladder: sets are playing
        killed, killed_sets = offline(database)
        games_then, _ = stored_games(database)
        referee.start()
        after = ladder_of(referee)
        assert after["sets"] >= killed_sets >= before["sets"]
        if after["sets"] == killed_sets:  # no set ended since: the very same table
            assert shown(after) == killed
        until(referee, lambda d: d["sets"] >= killed_sets + 2, "matchmaking resumes")

        assert cli(referee, referee.admin, "pause", "open").exit_code == 0
        time.sleep(5.0)  # the sets in progress end their games in flight
        paused = ladder_of(referee)
        now, _ = offline(database)
        assert shown(paused) == now
        games, sets = stored_games(database)
        by_index = {game.index: game for game in games}
        assert len(by_index) == len(games) and {g.index for g in games_then} <= set(by_index)
        for ladder_set in sets:  # every stored game is its set's, seated as the set's plan says: none played twice
            seed = next((by_index[i].seed for i in ladder_set.indices if i in by_index), 0)
            for planned in ladder_games(ladder_set, seed):
                if planned.index in by_index:
                    assert by_index[planned.index].figures.seats == planned.seats
                    assert by_index[planned.index].set_id == ladder_set.set_id
        assert set(by_index) <= {index for ladder_set in sets for index in ladder_set.indices}
        for ladder_set in sets:
            assert len({OWNERS[bot] for bot in ladder_set.bots}) == len(ladder_set.bots)  # owners apart

        pages(http, tokens, games)

        table = cli(referee, referee.entry, "standings", "open")
        assert table.exit_code == 0, table.output
        for column in ("rank", "bot", "owner", "version", "mu", "sigma", "rating", "sets", "games", "status"):
            assert column in table.stdout

        finalized = cli(referee, referee.admin, "finalize", "open", "--top", "3", "--max-games", "18")
        assert finalized.exit_code == 0, finalized.output
        deadline = time.monotonic() + TIMEOUT
        while "finished" not in cli(referee, referee.entry, "leagues").stdout:
            assert time.monotonic() < deadline, referee.log.read_text()[-3000:]
            time.sleep(0.5)
        final = ladder_of(referee)["final"]
        assert len(final["rows"]) == 3 and "separated" in final["rows"][0] and "separated" not in final["rows"][2]
        bundle = tmp_path / "bundle"
        exported = cli(referee, referee.admin, "export", "open", str(bundle))
        assert exported.exit_code == 0, exported.output
        verified = runner.invoke(app, ["league", "verify-bundle", str(bundle)])
        assert verified.exit_code == 0, verified.output
        assert final["games"] == len(list((bundle / "records").glob("*.json")))
        info = referee.call("ListLeagues", pb.ListLeaguesRequest(), referee.entry).leagues[0]
        assert info.ladder and len(info.versions) == 3
