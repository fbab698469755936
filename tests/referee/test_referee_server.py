"""The hosted referee, end to end on loopback: the server and every bot are separate processes.

- a league among the example bots: registered through the CLI, started, followed with the event
  stream, its standings equal to ``rage ratings`` on the same database, its records verified;
- refusals: no token, a wrong one, another bot's, an entrant calling organizer methods, oversize,
  malformed and undecodable requests; none of them changes anything;
- the server killed with SIGKILL during a league and started again: every game finished before is
  still there, unchanged, and the league completes without anyone calling.
"""

from __future__ import annotations

import contextlib
import json
import re
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase
from rage_referee.cli import app
from rage_referee.league.store import Store
from rage_referee.seats import free_port, stop_group
from rage_sdk.cards import token
from rage_sdk.deal import key_commitment, keyed_seed, seeded_deal
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc
from rage_sdk.replay import verify
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

from tests.helpers.backends import BACKENDS, fresh_database

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
RAGE = str(Path(sys.executable).with_name("rage"))
PYTHON = sys.executable
DEADLINE = 10.0
START_TIMEOUT = 60.0
LEAGUE_TIMEOUT = 60.0

BOTS = {
    "random-a": [RAGE, "bot", "serve", f"{EXAMPLES}/random_bot.py:RandomBot", "--port", "{port}"],
    "random-b": [PYTHON, f"{EXAMPLES}/random_bot.py", "--port", "{port}"],
    "greedy": [PYTHON, f"{EXAMPLES}/greedy_bot.py", "--port", "{port}"],
    "heuristic": [PYTHON, f"{EXAMPLES}/heuristic_bot.py", "--port", "{port}"],
}
"""The example bots, each its own process (one of them served by ``rage bot serve``)."""

SMALL_LEAGUE = """
name = "cup"
players = 2
games = 12                   # one round: a duplicate set of 2 at each of the 6 tables of 2 out of 4 bots
seed = 5
concurrency = 4
database = "ignored.sqlite"  # the referee keeps every league in its own database

[ruleset]
preset = "amigo"
rounds = [3, 2]

[time]
decision_ms = 2000
bank_ms = 5000

[bots]                       # registered names; the values are ignored
random-a = ""
random-b = ""
greedy = ""
heuristic = ""
"""

LONG_LEAGUE = """
name = "marathon"
players = 3
games_per_table = 18  # 3 duplicate sets: it is killed after 4 games
seed = 9
concurrency = 2
bots = ["random-a", "greedy", "heuristic"]

[ruleset]
preset = "amigo"
rounds = [5, 4, 3]
"""

runner = CliRunner()


# ------------------------------------------------------------------ processes
def launch(argv: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("ab") as handle:
        return subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=handle, stderr=handle, start_new_session=True)


def wait_serving(address: str, process: subprocess.Popen[bytes], log: Path, service: str = "") -> None:
    """Until the health service at ``address`` says SERVING; fails if the process ends first."""
    deadline = time.monotonic() + START_TIMEOUT
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            assert process.poll() is None, f"{process.args} ended: {log.read_text()[-2000:]}"
            with contextlib.suppress(grpc.RpcError):
                reply = stub.Check(health_pb2.HealthCheckRequest(service=service), timeout=1.0)
                if reply.status == health_pb2.HealthCheckResponse.SERVING:
                    return
            time.sleep(0.1)
    raise AssertionError(f"{process.args} did not serve within {START_TIMEOUT:.0f} s: {log.read_text()[-2000:]}")


@pytest.fixture(scope="module")
def bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The example bots, serving for the whole module: name -> HOST:PORT."""
    logs = tmp_path_factory.mktemp("bots")
    processes: dict[str, subprocess.Popen[bytes]] = {}
    addresses: dict[str, str] = {}
    try:
        for name, argv in BOTS.items():
            port = free_port()
            processes[name] = launch([part.replace("{port}", str(port)) for part in argv], logs / f"{name}.log")
            addresses[name] = f"127.0.0.1:{port}"
        for name, process in processes.items():
            wait_serving(addresses[name], process, logs / f"{name}.log")
        yield addresses
    finally:
        for process in processes.values():
            stop_group(process, 10.0)
    assert all(process.poll() is not None for process in processes.values())


@dataclass
class Referee:
    """A ``rage referee serve`` process and a channel to it."""

    folder: Path
    database: str
    """The URL of the referee's database."""
    port: int
    admin: str
    entry: str
    process: subprocess.Popen[bytes] | None = None
    channel: grpc.Channel | None = None
    bot_tokens: dict[str, str] = field(default_factory=dict)
    follower: Follower | None = None
    """The Watch stream that followed the league of the ``contest`` fixture."""
    options: tuple[str, ...] = ()
    """More options for ``rage referee serve``."""

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.folder / "referee.log"

    def start(self) -> Referee:
        argv = [
            RAGE, "referee", "serve", "--port", str(self.port), "--host", "127.0.0.1", "--db", self.database,
            "--admin-token-file", str(self.folder / "admin.token"),
            "--entry-token-file", str(self.folder / "entry.token"), *self.options,
        ]  # fmt: skip
        self.process = launch(argv, self.log)
        wait_serving(self.address, self.process, self.log, service="rage.v1.Referee")
        self.channel = grpc.insecure_channel(self.address)
        return self

    @property
    def stub(self) -> Any:
        return referee_pb2_grpc.RefereeStub(self.channel)

    def call(self, method: str, request: Any, token: str | None) -> Any:
        metadata = [] if token is None else [("authorization", f"Bearer {token}")]
        return getattr(self.stub, method)(request, metadata=metadata, timeout=DEADLINE)

    def close_channel(self) -> None:
        if self.channel is not None:
            self.channel.close()
            self.channel = None

    def kill(self) -> None:
        """SIGKILL: no chance to finish or store anything."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.close_channel()

    def stop(self) -> None:
        self.close_channel()
        if self.process is not None:
            stop_group(self.process, 10.0)


@contextlib.contextmanager
def referee_server(folder: Path, database: str, *options: str) -> Iterator[Referee]:
    """A referee on a free loopback port keeping ``database``, its token files written first; stopped at the end."""
    folder.mkdir(parents=True, exist_ok=True)
    admin, entry = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
    (folder / "admin.token").write_text(admin + "\n")
    (folder / "entry.token").write_text(entry + "\n")
    referee = Referee(folder, database, free_port(), admin, entry, options=options)
    try:
        yield referee.start()
    finally:
        referee.stop()
    assert referee.process is not None and referee.process.returncode == 0, "no graceful stop on SIGTERM"


def cli(referee: Referee, token: str | None, *args: str) -> Any:
    env = {"RAGE_REFEREE": referee.address, "RAGE_TOKEN": token or ""}
    result = runner.invoke(app, ["referee", *args], env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def register(referee: Referee, bots: dict[str, str], names: list[str]) -> None:
    """Register ``names`` through ``rage referee register`` with the entry token; keep their tokens."""
    for name in names:
        result = cli(referee, referee.entry, "register", name, bots[name], "--owner", f"team {name}")
        assert result.exit_code == 0, result.output
        assert "shown this once" in result.stderr
        referee.bot_tokens[name] = result.stdout.strip()


class Follower(threading.Thread):
    """A Watch stream read on a thread, every event kept; subscribed once the constructor returns."""

    def __init__(self, referee: Referee, league: str, history: bool = False) -> None:
        super().__init__(daemon=True)
        self.call = referee.stub.Watch(
            pb.WatchRequest(league=league, history=history),
            metadata=[("authorization", f"Bearer {referee.entry}")],
            timeout=LEAGUE_TIMEOUT + 30,
        )
        self.events: list[pb.LeagueEvent] = []
        self.error: grpc.RpcError | None = None
        self.start()
        # The referee subscribes the stream before it sends the league's status: once that is here,
        # nothing that happens next can be missed.
        deadline = time.monotonic() + DEADLINE
        while not self.events and self.is_alive():
            assert time.monotonic() < deadline, "no first event"
            time.sleep(0.01)

    def run(self) -> None:
        try:
            for event in self.call:
                self.events.append(event)
        except grpc.RpcError as error:
            self.error = error

    def of(self, kind: str) -> list[Any]:
        return [getattr(event, kind) for event in list(self.events) if event.WhichOneof("kind") == kind]

    def wait_for_games(self, count: int) -> None:
        deadline = time.monotonic() + LEAGUE_TIMEOUT
        while len(self.of("game_finished")) < count:
            assert self.is_alive(), f"the stream ended early: {self.error}"
            assert time.monotonic() < deadline, f"{count} games did not finish in time"
            time.sleep(0.05)


def statuses(follower: Follower) -> list[int]:
    return [event.status for event in follower.of("status_changed")]


def code_of(call: Any) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code(), info.value.details() or ""


# ------------------------------------------------------------------ a league, end to end
@pytest.fixture(scope="module", params=BACKENDS)
def contest(
    tmp_path_factory: pytest.TempPathFactory, bots: dict[str, str], request: pytest.FixtureRequest
) -> Iterator[Referee]:
    """A referee with the four example bots registered and the small league played to its end (on each database)."""
    folder = tmp_path_factory.mktemp("contest")
    with fresh_database(request.param, folder) as database, referee_server(folder, database) as referee:
        register(referee, bots, list(BOTS))
        league_file = referee.folder / "cup.toml"
        league_file.write_text(SMALL_LEAGUE)
        created = cli(referee, referee.admin, "create", str(league_file))
        assert created.exit_code == 0, created.output
        assert "they can recognise a deal repeated within its set" in " ".join(created.stdout.split())
        follower = Follower(referee, "cup")
        started = cli(referee, referee.admin, "start", "cup")
        assert started.exit_code == 0, started.output
        follower.join(LEAGUE_TIMEOUT)
        assert not follower.is_alive(), "the league did not finish in time"
        assert follower.error is None, follower.error
        referee.follower = follower
        yield referee


def test_health_and_reflection(contest: Referee) -> None:
    with grpc.insecure_channel(contest.address) as channel:
        health = health_pb2_grpc.HealthStub(channel)
        for service in ("", "rage.v1.Referee"):
            reply = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=DEADLINE)
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        services = ProtoReflectionDescriptorDatabase(channel).get_services()
    assert {"rage.v1.Referee", "grpc.health.v1.Health", "grpc.reflection.v1alpha.ServerReflection"} <= set(services)


def test_the_event_stream_follows_the_league(contest: Referee) -> None:
    follower = contest.follower
    assert follower is not None
    finished = follower.of("game_finished")
    assert statuses(follower) == [pb.LEAGUE_STATUS_CREATED, pb.LEAGUE_STATUS_RUNNING, pb.LEAGUE_STATUS_FINISHED]
    assert follower.events[-1].status_changed.games_done == 12
    assert sorted(game.game for game in finished) == list(range(12))
    assert [game.games_done for game in finished] == list(range(1, 13))
    for game in finished:
        assert len(game.seats) == 2 and set(game.seats) <= set(BOTS)
        assert sorted(game.places)[0] == 1 and len(game.totals) == 2
    standings = follower.of("standings_changed")
    assert standings, "no standings event"
    last = standings[-1]
    assert last.games == 12 and not last.intervals
    assert {row.bot for row in last.rows} == set(BOTS)
    assert not any(row.HasField("low") for row in last.rows)
    assert [(pair.a, pair.b) for pair in last.pairs] == list(combinations([row.bot for row in last.rows], 2))
    # the stream ends right after the league's last status
    assert follower.events[-1].WhichOneof("kind") == "status_changed"


def test_standings_are_the_rating_table_of_rage_ratings(contest: Referee) -> None:
    hosted = cli(contest, contest.entry, "standings", "cup", "--format", "json")
    assert hosted.exit_code == 0, hosted.output
    local = runner.invoke(app, ["ratings", "--db", contest.database, "--name", "cup", "--format", "json"])
    assert local.exit_code == 0, local.output
    rows = json.loads(hosted.stdout)
    assert {row.pop("owner") for row in rows} == {"entry"}  # the entrant whose bots they are, beside the bot
    assert rows == json.loads(local.stdout)
    reply = contest.call("GetStandings", pb.LeagueRequest(league="cup"), contest.entry)
    assert reply.intervals and reply.games == 12 and len(reply.rows) == 4
    assert all(row.low <= row.elo <= row.high for row in reply.rows)
    assert [row.memory_audit.sets for row in reply.rows] == [0] * 4  # a table of two gives no set figure
    assert all("memory_audit" in row for row in rows)  # yet every row says so, as rage ratings does
    pairs = runner.invoke(app, ["ratings", "--db", contest.database, "--name", "cup", "--pairs", "--format", "json"])
    hosted_pairs = [json_format.MessageToDict(pair, preserving_proto_field_name=True) for pair in reply.pairs]
    for ours, theirs in zip(json.loads(pairs.stdout), hosted_pairs, strict=True):
        assert {key: value for key, value in ours.items() if value not in (None, 0, False)} == pytest.approx(theirs)
    table = cli(contest, contest.entry, "standings", "cup")
    assert table.exit_code == 0 and "heuristic" in table.stdout


def test_records_verify_and_match_the_events(contest: Referee, tmp_path: Path) -> None:
    follower = contest.follower
    assert follower is not None
    for game in follower.of("game_finished"):
        reply = contest.call("GetRecord", pb.GetRecordRequest(league="cup", game=game.game), contest.entry)
        verdict = verify(reply.record)
        assert verdict.ok, verdict.message
        record = json.loads(reply.record)
        assert record["players"] == list(game.seats)
        assert (record["meta"]["league"], record["meta"]["game"]) == ("cup", game.game)
        assert list(verdict.totals) == list(game.totals)
        assert list(verdict.places) == list(game.places)
    path = tmp_path / "game.json"
    fetched = cli(contest, contest.entry, "record", "cup", "4", "--out", str(path))
    assert fetched.exit_code == 0, fetched.output
    checked = runner.invoke(app, ["replay", "verify", str(path)])
    assert checked.exit_code == 0, checked.output


def test_listing_and_watching_a_finished_league(contest: Referee) -> None:
    leagues = contest.call("ListLeagues", pb.ListLeaguesRequest(), contest.entry).leagues
    (cup,) = [league for league in leagues if league.name == "cup"]
    assert (cup.status, cup.games_done, cup.games_total, cup.players) == (pb.LEAGUE_STATUS_FINISHED, 12, 12, 2)
    assert list(cup.bots) == list(BOTS)
    assert json.loads(cup.ruleset) == {"preset": "amigo", "rounds": [3, 2]}
    watched = cli(contest, contest.entry, "watch", "cup", "--history", "--json")
    assert watched.exit_code == 0, watched.output
    events = [json.loads(line) for line in watched.stdout.splitlines()]
    assert events[0]["statusChanged"]["status"] == "LEAGUE_STATUS_FINISHED"
    assert sorted(event["gameFinished"].get("game", 0) for event in events if "gameFinished" in event) == list(
        range(12)
    )
    assert "standingsChanged" in events[-1]


def test_addresses_are_shown_to_the_organizer_and_the_bot_itself(contest: Referee, bots: dict[str, str]) -> None:
    as_admin = contest.call("ListBots", pb.ListBotsRequest(), contest.admin).bots
    assert {bot.name: bot.address for bot in as_admin} == bots
    assert [bot.owner for bot in as_admin] == [f"team {name}" for name in BOTS]
    as_bot = contest.call("ListBots", pb.ListBotsRequest(), contest.bot_tokens["greedy"]).bots
    assert {bot.name: bot.address for bot in as_bot} == {
        name: (address if name == "greedy" else "") for name, address in bots.items()
    }
    port = bots["greedy"].rsplit(":", 1)[1]
    moved = contest.call(
        "UpdateBot", pb.UpdateBotRequest(name="greedy", address=f"localhost:{port}"), contest.bot_tokens["greedy"]
    )
    assert moved.address == f"localhost:{port}"
    contest.call("UpdateBot", pb.UpdateBotRequest(name="greedy", address=bots["greedy"]), contest.bot_tokens["greedy"])


# ------------------------------------------------------------------ refusals
def snapshot(referee: Referee) -> tuple[list[Any], list[Any]]:
    bots = list(referee.call("ListBots", pb.ListBotsRequest(), referee.admin).bots)
    leagues = list(referee.call("ListLeagues", pb.ListLeaguesRequest(), referee.admin).leagues)
    return bots, leagues


def test_tokens_are_checked_and_refusals_change_nothing(contest: Referee) -> None:
    before = snapshot(contest)
    address = "127.0.0.1:1"
    register_request = pb.RegisterBotRequest(name="intruder", address=address)
    league = pb.LeagueRequest(league="cup")
    unauthenticated = [
        lambda: contest.call("RegisterBot", register_request, None),
        lambda: contest.call("ListBots", pb.ListBotsRequest(), None),
        lambda: contest.call("GetStandings", league, None),
        lambda: contest.call("RegisterBot", register_request, "not-a-token"),
        lambda: contest.call("CancelLeague", league, contest.admin + "x"),
        lambda: contest.stub.ListBots(
            pb.ListBotsRequest(), metadata=[("authorization", f"Basic {contest.admin}")], timeout=DEADLINE
        ),
        lambda: list(contest.stub.Watch(pb.WatchRequest(league="cup"), timeout=DEADLINE)),
    ]
    for call in unauthenticated:
        assert code_of(call)[0] is grpc.StatusCode.UNAUTHENTICATED
    greedy, random_a = contest.bot_tokens["greedy"], contest.bot_tokens["random-a"]
    denied = [
        lambda: contest.call("UpdateBot", pb.UpdateBotRequest(name="greedy", address=address), random_a),
        lambda: contest.call("UpdateBot", pb.UpdateBotRequest(name="greedy", address=address), contest.entry),
        lambda: contest.call("RegisterBot", register_request, greedy),
        lambda: contest.call("CreateLeague", pb.CreateLeagueRequest(definition=SMALL_LEAGUE, name="x"), contest.entry),
        lambda: contest.call("CreateLeague", pb.CreateLeagueRequest(definition=SMALL_LEAGUE, name="x"), greedy),
        lambda: contest.call("StartLeague", league, contest.entry),
        lambda: contest.call("PauseLeague", league, greedy),
        lambda: contest.call("ResumeLeague", league, contest.entry),
        lambda: contest.call("CancelLeague", league, contest.entry),
    ]
    for call in denied:
        code, details = code_of(call)
        assert code is grpc.StatusCode.PERMISSION_DENIED, details
    assert snapshot(contest) == before


def test_the_cli_reports_refusals_without_a_traceback(contest: Referee) -> None:
    refused = cli(contest, contest.entry, "cancel", "cup")
    assert refused.exit_code == 1
    assert "PERMISSION_DENIED" in refused.stderr and "admin token" in refused.stderr
    missing = cli(contest, None, "bots")
    assert missing.exit_code == 2 and "RAGE_TOKEN" in missing.stderr
    nowhere = runner.invoke(app, ["referee", "bots", "--referee", f"127.0.0.1:{free_port()}", "--token", "x" * 20])
    assert nowhere.exit_code == 1 and "cannot reach the referee" in nowhere.stderr
    again = cli(contest, contest.admin, "start", "cup")
    assert again.exit_code == 1 and "FAILED_PRECONDITION" in again.stderr and "finished" in again.stderr


@pytest.mark.parametrize(
    ("token", "args", "line"),
    [
        ("entry", ["register", "big", "127.0.0.1:5", "--owner", "o" * 100_000], "--owner: at most 100 characters"),
        ("entry", ["register", "b" * 41, "127.0.0.1:5"], "NAME: at most 40 characters, not 41"),
        ("entry", ["register", "big", "1" * 300 + ":5"], "ADDRESS: at most 260 characters, not 302"),
        ("entry", ["submit", ".", "--name", "big", "--owner", "o" * 101], "--owner: at most 100 characters, not 101"),
        ("entry", ["standings", "c" * 61], "LEAGUE: at most 60 characters, not 61"),
        ("t" * 100_000, ["bots"], "--token: at most 256 characters, not 100000"),
    ],
)
def test_text_past_the_referees_bound_is_refused_naming_the_field(
    contest: Referee, token: str, args: list[str], line: str
) -> None:
    """An owner of 100,000 characters came back as 'refused (RESOURCE_EXHAUSTED): Received message larger than
    max'; each is now refused before any call, naming the field and its bound."""
    result = cli(contest, contest.entry if token == "entry" else token, *args)
    assert result.exit_code == 2, result.output[-2000:]
    assert result.stderr.strip().startswith(line), result.stderr[-2000:]
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("method", "request_", "field_"),
    [
        ("RegisterBot", pb.RegisterBotRequest(name="", address="127.0.0.1:5"), "name"),
        ("RegisterBot", pb.RegisterBotRequest(name="two words", address="127.0.0.1:5"), "name"),
        ("RegisterBot", pb.RegisterBotRequest(name="x" * 41, address="127.0.0.1:5"), "name"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="no-port"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="127.0.0.1:0"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="127.0.0.1:99999"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="[::1]"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="bad host!:80"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="10.1.2.3:50051"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="[2001:db8::1]:50051"), "address"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="127.0.0.1:5", owner="a\nb"), "owner"),
        ("RegisterBot", pb.RegisterBotRequest(name="ok", address="127.0.0.1:5", owner="o" * 101), "owner"),
        ("CreateLeague", pb.CreateLeagueRequest(definition="", name="x"), "definition"),
        ("CreateLeague", pb.CreateLeagueRequest(definition="players = [", name="x"), "definition"),
        ("CreateLeague", pb.CreateLeagueRequest(definition="players = 3\ngames = 3\n", name="x"), "definition.ruleset"),
        ("CreateLeague", pb.CreateLeagueRequest(definition='players = 3\nruleset = "amigo"\n', name="x"), "definition"),
        ("CreateLeague", pb.CreateLeagueRequest(definition='players = 1\ngames = 3\nruleset = "amigo"'), "name"),
        (
            "CreateLeague",
            pb.CreateLeagueRequest(definition='players = 1\ngames = 3\nruleset = "amigo"', name="x"),
            "definition.players",
        ),
        (
            "CreateLeague",
            pb.CreateLeagueRequest(definition='players = 3\ngames = 3\nruleset = "amigo"\nbots = ["nobody"]', name="x"),
            "definition.bots",
        ),
        (
            "CreateLeague",
            pb.CreateLeagueRequest(definition='players = 3\ngames = 999999999\nruleset = "amigo"', name="x"),
            "definition.games",
        ),
        ("StartLeague", pb.LeagueRequest(league="../etc"), "league"),
        ("GetRecord", pb.GetRecordRequest(league="cup", game=12), "game"),
    ],
)
def test_malformed_requests_name_the_field(contest: Referee, method: str, request_: Any, field_: str) -> None:
    before = snapshot(contest)
    code, details = code_of(lambda: contest.call(method, request_, contest.admin))
    assert code is grpc.StatusCode.INVALID_ARGUMENT, details
    assert details.startswith(f"{field_}:") or details.startswith(f"{field_}."), details
    assert snapshot(contest) == before


def test_oversize_and_undecodable_requests_are_refused(contest: Referee) -> None:
    before = snapshot(contest)
    huge = pb.RegisterBotRequest(name="big", address="127.0.0.1:5", owner="o" * (70 * 1024))
    assert code_of(lambda: contest.call("RegisterBot", huge, contest.entry))[0] is grpc.StatusCode.RESOURCE_EXHAUSTED
    long_league = pb.CreateLeagueRequest(definition="# " + "x" * (40 * 1024), name="x")
    code, details = code_of(lambda: contest.call("CreateLeague", long_league, contest.admin))
    assert code is grpc.StatusCode.INVALID_ARGUMENT and details.startswith("definition:")
    assert contest.channel is not None
    raw = contest.channel.unary_unary("/rage.v1.Referee/RegisterBot")
    metadata = [("authorization", f"Bearer {contest.entry}")]
    for garbage in (b"\xff\xff\xff", b"\x0a\x02\xc3\x28"):  # corrupt wire format; a name that is not UTF-8
        code, details = code_of(lambda body=garbage: raw(body, metadata=metadata, timeout=DEADLINE))
        assert code is grpc.StatusCode.INVALID_ARGUMENT and details.startswith("request:"), details
    duplicate = pb.RegisterBotRequest(name="greedy", address="127.0.0.1:5")
    assert code_of(lambda: contest.call("RegisterBot", duplicate, contest.entry))[0] is grpc.StatusCode.ALREADY_EXISTS
    assert snapshot(contest) == before


# ------------------------------------------------------------------ faults, pause, resume, cancel
HAUNTED_LEAGUE = """
name = "haunted"
players = 3
games = 6                    # one duplicate set
concurrency = 1              # one game at a time: the bot is forfeited after exactly max_faults faults
bots = ["random-a", "greedy", "ghost"]

[ruleset]
preset = "amigo"
rounds = [2, 1]

[time]
max_faults = 2
"""

RELAY_LEAGUE = """
players = 2
games = 60
concurrency = 2
bots = ["random-b", "heuristic"]

[ruleset]
preset = "amigo"
rounds = [4, 3]
"""


def test_an_unreachable_bot_is_faulted_and_the_league_goes_on(contest: Referee) -> None:
    nowhere = f"127.0.0.1:{free_port()}"  # nothing listens there
    contest.call("RegisterBot", pb.RegisterBotRequest(name="ghost", address=nowhere), contest.entry)
    contest.call("CreateLeague", pb.CreateLeagueRequest(definition=HAUNTED_LEAGUE), contest.admin)
    follower = Follower(contest, "haunted")
    contest.call("StartLeague", pb.LeagueRequest(league="haunted"), contest.admin)
    follower.join(LEAGUE_TIMEOUT)
    assert not follower.is_alive() and follower.error is None, follower.error
    faults = [fault for fault in follower.of("bot_faulted") if fault.kind != "forfeited"]
    assert len(faults) == 2, "max_faults = 2: then the fallback plays for it without asking"
    assert {(fault.bot, fault.kind) for fault in faults} == {("ghost", "crashed")}
    finished = follower.of("game_finished")
    assert len(finished) == 6 and sum(game.faults for game in finished) == 2
    # Every decision the referee took for it after that is shown: once per game, with how many.
    assert [list(game.forfeited) for game in finished] == [["ghost"]] * 6
    forfeits = [fault for fault in follower.of("bot_faulted") if fault.kind == "forfeited"]
    assert [(fault.bot, fault.game) for fault in forfeits] == [("ghost", game.game) for game in finished]
    assert all(re.search(r"forfeited after 2 faults: the referee played its \d+ decisions", f.detail) for f in forfeits)
    assert statuses(follower)[-1] == pb.LEAGUE_STATUS_FINISHED


def games_done(referee: Referee, league: str) -> int:
    leagues = referee.call("ListLeagues", pb.ListLeaguesRequest(), referee.entry).leagues
    return next(info.games_done for info in leagues if info.name == league)


def settled(referee: Referee, league: str) -> int:
    """The league's finished games, once two readings half a second apart agree."""
    last = games_done(referee, league)
    while True:
        time.sleep(0.5)
        now = games_done(referee, league)
        if now == last:
            return now
        last = now


def test_pause_resume_and_cancel(contest: Referee) -> None:
    league = pb.LeagueRequest(league="relay")
    contest.call("CreateLeague", pb.CreateLeagueRequest(definition=RELAY_LEAGUE, name="relay"), contest.admin)
    follower = Follower(contest, "relay")
    contest.call("StartLeague", league, contest.admin)
    follower.wait_for_games(2)
    assert contest.call("PauseLeague", league, contest.admin).status == pb.LEAGUE_STATUS_PAUSED
    held = settled(contest, "relay")  # the games in progress finish; no new one starts
    assert held < 60
    code, details = code_of(lambda: contest.call("PauseLeague", league, contest.admin))
    assert code is grpc.StatusCode.FAILED_PRECONDITION and "paused" in details
    assert contest.call("ResumeLeague", league, contest.admin).status == pb.LEAGUE_STATUS_RUNNING
    follower.join(LEAGUE_TIMEOUT)
    assert not follower.is_alive() and follower.error is None, follower.error
    assert statuses(follower) == [
        pb.LEAGUE_STATUS_CREATED,
        pb.LEAGUE_STATUS_RUNNING,
        pb.LEAGUE_STATUS_PAUSED,
        pb.LEAGUE_STATUS_RUNNING,
        pb.LEAGUE_STATUS_FINISHED,
    ]
    assert sorted(game.game for game in follower.of("game_finished")) == list(range(60))

    void = RELAY_LEAGUE.replace("games = 60", "games = 2000")
    contest.call("CreateLeague", pb.CreateLeagueRequest(definition=void, name="void"), contest.admin)
    follower = Follower(contest, "void")
    contest.call("StartLeague", pb.LeagueRequest(league="void"), contest.admin)
    follower.wait_for_games(1)
    assert contest.call("CancelLeague", pb.LeagueRequest(league="void"), contest.admin).status == (
        pb.LEAGUE_STATUS_CANCELLED
    )
    follower.join(DEADLINE)
    assert not follower.is_alive() and statuses(follower)[-1] == pb.LEAGUE_STATUS_CANCELLED
    assert settled(contest, "void") < 2000
    code, _ = code_of(lambda: contest.call("ResumeLeague", pb.LeagueRequest(league="void"), contest.admin))
    assert code is grpc.StatusCode.FAILED_PRECONDITION


SEALED_LEAGUE = """
players = 2
games = 4
bots = ["random-b", "heuristic"]

[ruleset]
preset = "amigo"
rounds = [3, 2]
"""


def test_a_secret_league_commits_before_its_first_game_and_reveals_its_key_after_its_last(contest: Referee) -> None:
    sealed = pb.LeagueRequest(league="sealed")
    created = contest.call(
        "CreateLeague", pb.CreateLeagueRequest(definition=SEALED_LEAGUE, name="sealed"), contest.admin
    )
    commitment = created.deal_commitment
    assert len(commitment) == 64
    code, details = code_of(lambda: contest.call("RevealDealKey", sealed, contest.admin))
    assert code is grpc.StatusCode.FAILED_PRECONDITION and "finished or cancelled" in details
    follower = Follower(contest, "sealed")
    contest.call("StartLeague", sealed, contest.admin)
    follower.join(LEAGUE_TIMEOUT)
    assert not follower.is_alive() and follower.error is None, follower.error
    assert contest.call("GetStandings", sealed, contest.entry).deal_commitment == commitment
    assert f"commitment {commitment}" in " ".join(cli(contest, contest.entry, "standings", "sealed").stdout.split())
    leagues = contest.call("ListLeagues", pb.ListLeaguesRequest(), contest.entry).leagues
    assert {league.name: league.deal_commitment for league in leagues}["cup"] == ""  # seed = 5: public deals
    records = [
        json.loads(contest.call("GetRecord", pb.GetRecordRequest(league="sealed", game=g), contest.entry).record)
        for g in range(4)
    ]
    assert all(record["meta"]["deal_commitment"] == commitment for record in records)
    code, _ = code_of(lambda: contest.call("RevealDealKey", sealed, contest.entry))
    assert code is grpc.StatusCode.PERMISSION_DENIED
    revealed = cli(contest, contest.admin, "reveal", "sealed")
    assert revealed.exit_code == 0, revealed.output
    key = bytes.fromhex(contest.call("RevealDealKey", sealed, contest.admin).key)
    assert key.hex() in " ".join(revealed.stdout.split()) and key_commitment(key) == commitment
    for g, record in enumerate(records):  # two duplicate sets of two games
        deal = seeded_deal(Ruleset.of("amigo", rounds=[3, 2]), 2, keyed_seed(key, g // 2), 1)
        assert record["rounds"][0]["hands"] == [[token(card) for card in hand] for hand in deal.hands]
    code, details = code_of(lambda: contest.call("RevealDealKey", pb.LeagueRequest(league="cup"), contest.admin))
    assert code is grpc.StatusCode.FAILED_PRECONDITION and "public" in details


def test_fault_counts_survive_a_pause_and_resume(contest: Referee) -> None:
    """A bot forfeited before a pause is still forfeited after it: charged max_faults faults in all, not twice."""
    nowhere = f"127.0.0.1:{free_port()}"
    contest.call("RegisterBot", pb.RegisterBotRequest(name="phantom", address=nowhere), contest.entry)
    definition = RELAY_LEAGUE.replace('"heuristic"]', '"heuristic", "phantom"]').replace("concurrency = 2", "")
    definition += "[time]\nmax_faults = 2\n"
    league = pb.LeagueRequest(league="haunted-relay")
    contest.call("CreateLeague", pb.CreateLeagueRequest(definition=definition, name="haunted-relay"), contest.admin)
    follower = Follower(contest, "haunted-relay")
    contest.call("StartLeague", league, contest.admin)
    follower.wait_for_games(3)
    contest.call("PauseLeague", league, contest.admin)
    assert settled(contest, "haunted-relay") < 60, "the league finished before it could be paused"
    contest.call("ResumeLeague", league, contest.admin)
    follower.join(LEAGUE_TIMEOUT)
    assert not follower.is_alive() and follower.error is None, follower.error
    charged = [fault for fault in follower.of("bot_faulted") if fault.kind != "forfeited"]
    assert [(fault.bot, fault.kind) for fault in charged] == [("phantom", "crashed")] * 2
    standings = contest.call("GetStandings", league, contest.entry)
    phantom = next(row for row in standings.rows if row.bot == "phantom")
    assert phantom.faults == 2 and phantom.forfeited > 0
    assert phantom.games == phantom.forfeited  # a contest counts each as a loss
    assert standings.rows[-1].bot == "phantom"


# ------------------------------------------------------------------ SIGKILL mid-league
def stored_games(database: str, league: str) -> dict[int, dict[str, Any]]:
    store = Store(database)
    try:
        return {game.index: game.record for game in store.games(store.league(league))}
    finally:
        store.close()


@pytest.mark.slow
def test_a_killed_server_loses_no_game_and_the_league_completes(
    tmp_path: Path, bots: dict[str, str], database_url: str
) -> None:
    with referee_server(tmp_path / "referee", database_url) as referee:
        register(referee, bots, ["random-a", "greedy", "heuristic"])
        info = referee.call("CreateLeague", pb.CreateLeagueRequest(definition=LONG_LEAGUE), referee.admin)
        total = info.games_total
        assert total == 18
        follower = Follower(referee, "marathon")
        referee.call("StartLeague", pb.LeagueRequest(league="marathon"), referee.admin)
        follower.wait_for_games(4)
        referee.kill()
        follower.join(DEADLINE)
        announced = {game.game: game for game in follower.of("game_finished")}

        before = stored_games(referee.database, "marathon")
        assert set(announced) <= set(before), "a game announced as finished is not stored"
        assert len(before) < total, "the league finished before the server was killed"
        for index, game in announced.items():
            assert before[index]["players"] == list(game.seats)

        referee.start()  # no organizer call after this: the league resumes by itself
        resumed = Follower(referee, "marathon", history=True)
        resumed.join(LEAGUE_TIMEOUT)
        assert not resumed.is_alive(), "the resumed league did not finish in time"
        assert resumed.error is None, resumed.error
        # running when watched, or already finished if the rest of the games were quicker than the watcher
        assert statuses(resumed)[0] in (pb.LEAGUE_STATUS_RUNNING, pb.LEAGUE_STATUS_FINISHED)
        assert statuses(resumed)[-1] == pb.LEAGUE_STATUS_FINISHED
        assert sorted(game.game for game in resumed.of("game_finished")) == list(range(total))

        after = stored_games(referee.database, "marathon")
        assert sorted(after) == list(range(total))
        assert all(after[index] == record for index, record in before.items()), "a stored game changed"
        for index in announced:
            reply = referee.call("GetRecord", pb.GetRecordRequest(league="marathon", game=index), referee.entry)
            assert json.loads(reply.record) == before[index]
        assert verify(json.dumps(after[total - 1])).ok
        league = referee.call("ListLeagues", pb.ListLeaguesRequest(), referee.entry).leagues[0]
        assert (league.status, league.games_done) == (pb.LEAGUE_STATUS_FINISHED, total)
