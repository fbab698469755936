"""Matches over real gRPC: bots as their own processes on loopback, well-behaved and misbehaving.

The example bots decide the same way in-process and over gRPC (``RandomBot`` seeds itself from the
game id), so a game over gRPC must give exactly the record of the same seeded game in-process.
Every misbehaving bot in ``tests/bots/`` otherwise bids and plays the first legal action, which
is the referee's fallback: a game with it must give exactly the record of the same game with
``FirstLegalBot`` in its seat, while its faults are charged to it alone, each with its kind, round
and trick.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import os
import re
import shlex
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from rage_referee.matches.match import MatchResult, run_match
from rage_referee.play.deals import Deals
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import MAX_SEATS, FaultLedger, fallback_for, play_game
from rage_referee.play.meta import game_part
from rage_referee.play.spec import GameSpec, TimeControl
from rage_referee.seats import MAX_RESTARTS, BotHandle, BotIdentity, BotProcess, BotSpec, RemoteConnection
from rage_sdk.actions import Bid
from rage_sdk.cards import card_id
from rage_sdk.pb import bot_pb2 as pb
from rage_sdk.record import GameRecord, load_record
from rage_sdk.replay import play_of, verify
from rage_sdk.rules import Ruleset
from rage_sdk.state import GameState
from rage_sdk.view import SeatView, view_for
from typer.testing import CliRunner

from tests.helpers.bots import bot_module

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
BOTS = ROOT / "tests" / "bots"
PYTHON = shlex.quote(sys.executable)
SEED = 11
FIRST_GAME_SEED = Deals.public(SEED).seed_for(0)
"""The deal seed of a match's game 0, for a lone game to compare with it."""
AMIGO = Ruleset.of("amigo")
NO_FORFEIT = 10**6

# The well-behaved bots: each its own process for the whole module, and the same bot in-process.
SERVED = {
    "random_a": f"{PYTHON} {shlex.quote(str(EXAMPLES / 'random_bot.py'))}",
    "heuristic_a": f"python {shlex.quote(str(EXAMPLES / 'heuristic_bot.py'))}",
    "random_b": f"python3 {shlex.quote(str(EXAMPLES / 'random_bot.py'))}",
    "heuristic_b": f"{PYTHON} {shlex.quote(str(EXAMPLES / 'heuristic_bot.py'))}",
}
IN_PROCESS = {
    "random_a": f"{EXAMPLES}/random_bot.py:RandomBot",
    "heuristic_a": f"{EXAMPLES}/heuristic_bot.py:HeuristicBot",
    "random_b": f"{EXAMPLES}/random_bot.py:RandomBot",
    "heuristic_b": f"{EXAMPLES}/heuristic_bot.py:HeuristicBot",
}
BAD = "bad"
TABLE = ("random_a", "heuristic_a", "random_b")
"""The three well-behaved seats beside a misbehaving bot."""
FIRST_LEGAL = f"{BOTS}/botbase.py:FirstLegalBot"
MISBEHAVING = {
    "sleeper": ["sleeper.py"],
    "cheater": ["cheater.py"],
    "always_cheater": ["cheater.py", "--every", "1"],
    "raiser": ["raiser.py"],
    "garbage": ["garbage.py"],
    "light_flooder": ["flooder.py", "--flood", "5"],
    "heavy_flooder": ["flooder.py", "--flood", "400"],
    "shouter": ["shouter.py"],
    "mangler": ["mangler.py"],
}
"""Misbehaving bots launched once for the module beside the well-behaved ones (each used by one test)."""


def rage_cli(*args: str) -> Any:
    from rage_referee.cli import app

    return CliRunner().invoke(app, list(args))


def bad_command(script: str, *options: str) -> str:
    return shlex.join(["python", str(BOTS / script), *options])


# ------------------------------------------------------------------ processes
def child_pids() -> set[int]:
    """This process's children, from /proc."""
    me, children = os.getpid(), set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == me:
                children.add(int(entry.name))
    return children


@pytest.fixture(autouse=True)
def no_stray_processes() -> Iterator[None]:
    """Every bot process a test (or the referee for it) started is gone when it ends."""
    if not Path("/proc/self/stat").exists():
        yield
        return
    before = child_pids()
    yield
    assert child_pids() <= before, "bot processes left running"


@pytest.fixture(scope="module")
def served_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("served")


@pytest.fixture(scope="module")
def served(served_logs: Path) -> Iterator[dict[str, str]]:
    """The bots of SERVED and MISBEHAVING, launched at once for the module: name -> HOST:PORT."""
    commands = SERVED | {name: bad_command(*argv) for name, argv in MISBEHAVING.items()}
    processes = {name: BotProcess(command, served_logs / f"{name}.log") for name, command in commands.items()}

    async def start() -> list[str]:
        return await asyncio.gather(*(process.start() for process in processes.values()))

    try:
        addresses = asyncio.run(start())
        yield dict(zip(processes, addresses))
    finally:
        with ThreadPoolExecutor(len(processes)) as pool:
            list(pool.map(BotProcess.stop, processes.values()))
    assert not any(process.running for process in processes.values())


# ------------------------------------------------------------------ running and comparing
def match(specs: Sequence[BotSpec], ruleset: Ruleset, games: int, time: TimeControl, logs: Path) -> MatchResult:
    return asyncio.run(run_match(specs, ruleset, games, Deals.public(SEED), time, log_dir=logs))


def in_process(names: Sequence[str], ruleset: Ruleset, games: int, logs: Path, bad: str = FIRST_LEGAL) -> MatchResult:
    """The same match with every bot in the referee's process (the misbehaving one replaced by ``bad``)."""
    specs = [BotSpec.of(name, bad if name == BAD else IN_PROCESS[name]) for name in names]
    result = match(specs, ruleset, games, TimeControl(max_faults=NO_FORFEIT), logs)
    assert all(not game.figures.faults for game in result.games)
    return result


def outcome(game: FinishedGame) -> tuple[dict[str, Any], tuple[int, ...], tuple[int, ...]]:
    """What must not depend on the transport or on a bot's misbehaviour: the game's record, totals and places."""
    return game_part(game.record), game.figures.totals, game.figures.places


def assert_sound(result: MatchResult, games: int) -> None:
    """Every game was played to the end, its record verifies and carries the game's faults."""
    assert [game.index for game in result.games] == list(range(games))
    for game in result.games:
        verdict = verify(json.dumps(game.record))
        assert verdict.exit_code == 0, verdict.message
        assert verdict.totals == list(game.figures.totals) and verdict.places == list(game.figures.places)
        assert (
            len(game.record["rounds"])
            == len(GameRecord.model_validate(game.record).ruleset.rounds)
            == game.figures.rounds
        )
        assert game.record["faults"] == [fault.to_json() for fault in game.figures.faults]


def assert_same_games(result: MatchResult, baseline: MatchResult) -> None:
    assert [outcome(game) for game in result.games] == [outcome(game) for game in baseline.games]


@dataclass(frozen=True)
class Turn:
    """One decision of one seat, as the game's record replays it."""

    number: int
    """1-based among the seat's decisions in the game."""
    kind: str
    round: int
    trick: int
    view: SeatView


def turns_of(record: dict[str, Any], seat: int) -> list[Turn]:
    """Every decision ``seat`` had to make in a recorded game, with what it saw."""
    game = load_record(json.dumps(record))
    players = len(game.players)
    state = GameState(game.ruleset, players, first_round=game.first_round, dealer=game.rounds[0].dealer)
    turns: list[Turn] = []

    def turn(kind: str) -> None:
        trick = state.trick_number if kind == "play" else 0
        turns.append(Turn(len(turns) + 1, kind, state.round_number, trick, view_for(state, seat)))

    for round_ in game.rounds:
        state.deal([[card_id(c) for c in hand] for hand in round_.hands], [card_id(c) for c in round_.pile])
        for offset in range(1, players + 1):
            bidder = (round_.dealer + offset) % players
            if bidder == seat:
                turn("bid")
            state.apply(Bid.of(round_.bids[bidder]), bidder)
        for play in round_.plays:
            if play.seat == seat:
                turn("play")
            state.apply(play_of(play, game), play.seat)
    return turns


def fallback_text(turn: Turn) -> str:
    action = fallback_for(turn.view.legal_actions)
    return f"bid {action.tricks}" if isinstance(action, Bid) else str(action)


def bad_faults(result: MatchResult) -> list[list[tuple[str, int, int]]]:
    """Per game, the misbehaving bot's faults as (kind, round, trick); no other seat may have any."""
    out = []
    for game in result.games:
        seat = game.figures.seats.index(BAD)
        assert all(fault.seat == seat for fault in game.figures.faults), "a well-behaved seat was charged"
        out.append([(fault.kind.value, fault.round, fault.trick) for fault in game.figures.faults])
    for name in TABLE:
        assert result.stats[name].faults == 0
    return out


def expected_faults(result: MatchResult, kind_for: Any) -> list[list[tuple[str, int, int]]]:
    """Per game, (kind, round, trick) of each of the bad seat's turns where ``kind_for(turn)`` names a fault."""
    out = []
    for game in result.games:
        turns = turns_of(game.record, game.figures.seats.index(BAD))
        out.append([(kind, t.round, t.trick) for t in turns if (kind := kind_for(t)) is not None])
    return out


def assert_fallbacks(result: MatchResult) -> None:
    """Each fault names the fallback the referee played: the lowest legal bid or the first legal play."""
    for game in result.games:
        turns = {(t.round, t.trick): t for t in turns_of(game.record, game.figures.seats.index(BAD))}
        for fault in game.figures.faults:
            assert fault.fallback == fallback_text(turns[fault.round, fault.trick])


def with_bad(served: dict[str, str], target: str) -> list[BotSpec]:
    """The misbehaving bot (a served one by its name, or a command) at seat 0 of the first game, and TABLE."""
    return [BotSpec.of(BAD, served.get(target, target)), *(BotSpec.of(name, served[name]) for name in TABLE)]


# ------------------------------------------------------------------ well-behaved bots
@pytest.mark.parametrize("preset", ["amigo", "fundex", "waddingtons", "amigo1985"])
def test_preset_over_grpc_is_the_in_process_game(preset: str, served: dict[str, str], tmp_path: Path) -> None:
    rules = Ruleset.of(preset)
    names = list(SERVED)
    remote = match([BotSpec.of(name, served[name]) for name in names], rules, 2, TimeControl(), tmp_path)
    local = in_process(names, rules, 2, tmp_path)
    assert_sound(remote, 2)
    assert all(not game.figures.faults for game in remote.games)
    assert_same_games(remote, local)
    assert remote.games[0].record["rounds"] != remote.games[1].record["rounds"]
    assert {name: vars(stats) for name, stats in remote.stats.items()} == {
        name: vars(stats) for name, stats in local.stats.items()
    }


def test_match_launches_its_bots_and_stops_them(tmp_path: Path) -> None:
    """Commands with a leading ``python`` run on the referee's interpreter; every process is gone afterwards."""
    rules = Ruleset.of("fundex", bidding="secret")
    specs = [BotSpec.parse(f"{name}={command}") for name, command in SERVED.items()]
    assert all(spec.kind == "command" for spec in specs)
    before = child_pids()
    remote = match(specs, rules, 1, TimeControl(), tmp_path)
    assert child_pids() <= before
    assert_sound(remote, 1)
    assert_same_games(remote, in_process(list(SERVED), rules, 1, tmp_path))
    for name in SERVED:
        assert "serving on port" in (tmp_path / f"{name}.log").read_text()


# ------------------------------------------------------------------ misbehaving bots
def test_sleeper_times_out(served: dict[str, str], tmp_path: Path) -> None:
    sleeper = bot_module("sleeper")
    time = TimeControl(decision_ms=200, bank_ms=300, max_faults=NO_FORFEIT)
    result = match(with_bad(served, "sleeper"), AMIGO, 1, time, tmp_path)
    assert_sound(result, 1)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 1, tmp_path))

    plays = {}  # turn number -> 1-based number among the seat's plays
    for turn in turns_of(result.games[0].record, 0):
        if turn.kind == "play":
            plays[turn.number] = len(plays) + 1
    expected = expected_faults(
        result, lambda t: "timeout" if t.kind == "play" and plays[t.number] % sleeper.EVERY == 0 else None
    )
    assert bad_faults(result) == expected
    assert len(expected[0]) == 55 // sleeper.EVERY
    assert_fallbacks(result)
    # The first timeout waited the decision time and the bank, and used the bank up.
    waits = [int(re.findall(r"\d+", fault.detail)[0]) for fault in result.games[0].figures.faults]
    assert 200 < waits[0] <= 500 and waits[1:] == [200] * (len(waits) - 1)


def test_cheater_is_charged_illegal(served: dict[str, str], tmp_path: Path) -> None:
    cheater = bot_module("cheater")
    time = TimeControl(max_faults=NO_FORFEIT)
    result = match(with_bad(served, "cheater"), AMIGO, 2, time, tmp_path)
    assert_sound(result, 2)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 2, tmp_path))
    expected = expected_faults(result, lambda t: "illegal" if t.number % cheater.EVERY == 0 else None)
    assert bad_faults(result) == expected
    assert_fallbacks(result)
    kinds_seen = set()
    for game in result.games:
        seat = game.figures.seats.index(BAD)
        turns = {(t.round, t.trick): t for t in turns_of(game.record, seat)}
        for fault in game.figures.faults:
            turn = turns[fault.round, fault.trick]
            assert f"seat {seat}" in fault.detail
            if turn.kind == "bid":
                assert f"bid {turn.view.cards + 1}" in fault.detail
                kinds_seen.add("bid")
            else:
                card = cheater.cheat(turn.view).card
                assert f"played {card.token}" in fault.detail
                kind = "not in hand" if card not in turn.view.hand else "must follow"
                assert ("which is not in its hand" in fault.detail) == (kind == "not in hand")
                kinds_seen.add(kind)
    assert kinds_seen == {"bid", "not in hand", "must follow"}


def test_raiser_is_charged_bot_error(served: dict[str, str], served_logs: Path, tmp_path: Path) -> None:
    raiser = bot_module("raiser")
    time = TimeControl(max_faults=NO_FORFEIT)
    result = match(with_bad(served, "raiser"), AMIGO, 1, time, tmp_path)
    assert_sound(result, 1)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 1, tmp_path))
    expected = expected_faults(result, lambda t: "bot_error" if t.number % raiser.EVERY == 0 else None)
    assert bad_faults(result) == expected
    assert_fallbacks(result)
    for game in result.games:
        numbers = [
            t.number for t in turns_of(game.record, game.figures.seats.index(BAD)) if t.number % raiser.EVERY == 0
        ]
        for fault, number in zip(game.figures.faults, numbers, strict=True):
            assert f"RuntimeError: raiser fails on decision {number} (round {fault.round})" in fault.detail
    assert "RuntimeError: raiser fails" in (served_logs / "raiser.log").read_text()


def test_garbage_is_charged_malformed_or_timeout(served: dict[str, str], tmp_path: Path) -> None:
    garbage = bot_module("garbage")
    time = TimeControl(decision_ms=200, bank_ms=300, max_faults=NO_FORFEIT)
    result = match(with_bad(served, "garbage"), AMIGO, 1, time, tmp_path)
    assert_sound(result, 1)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 1, tmp_path))
    kinds = {"unknown_seq": "timeout", "unknown_game": "timeout", "out_of_range": "malformed", "bare_wild": "malformed"}
    wire_kind = {"bid": pb.DECISION_KIND_BID, "play": pb.DECISION_KIND_PLAY}

    def kind_for(turn: Turn) -> str | None:
        what = garbage.garbage_for(turn.number, wire_kind[turn.kind])
        if what == "out_of_range" and turn.kind == "bid":
            return "illegal"  # a bid of 9999 tricks: a number of tricks, more than the hand holds
        return None if what is None else kinds[what]

    expected = expected_faults(result, kind_for)
    assert bad_faults(result) == expected
    assert {kind for kind, _, _ in expected[0]} == {"timeout", "malformed", "illegal"}
    assert_fallbacks(result)
    for fault in result.games[0].figures.faults:
        if fault.kind.value in ("malformed", "illegal"):
            assert str(garbage.OUT_OF_RANGE) in fault.detail or str(garbage.BARE_WILD) in fault.detail


def test_light_flood_is_ignored(served: dict[str, str], tmp_path: Path) -> None:
    """Extra answers (to the same request, and ahead of time to the game's next ones) change nothing."""
    time = TimeControl(max_faults=NO_FORFEIT)
    result = match(with_bad(served, "light_flooder"), AMIGO, 2, time, tmp_path)
    assert_sound(result, 2)
    assert bad_faults(result) == [[], []]
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 2, tmp_path))


def test_heavy_flood_is_cut(served: dict[str, str], tmp_path: Path) -> None:
    """A bot that floods past the limit is cut off; the game goes on without it."""
    time = TimeControl(max_faults=NO_FORFEIT)
    result = match(with_bad(served, "heavy_flooder"), AMIGO, 1, time, tmp_path)
    assert_sound(result, 1)
    (faults,) = bad_faults(result)
    assert faults and {kind for kind, _, _ in faults} == {"crashed"}
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 1, tmp_path))
    assert_fallbacks(result)


def test_a_bots_error_text_is_capped_and_escaped(served: dict[str, str], tmp_path: Path) -> None:
    """100 KB of ANSI escapes and newlines as an error: stored and printed as one short, escaped line."""
    shouter = bot_module("shouter")
    records = tmp_path / "records"
    result = rage_cli(
        "match",
        "--bot",
        f"{BAD}={served['shouter']}",
        *(f"--bot={name}={IN_PROCESS[name]}" for name in TABLE),
        "--games",
        "1",
        "--max-faults",
        str(NO_FORFEIT),
        "--records",
        str(records),
        "--logs",
        str(tmp_path),
    )
    assert result.exit_code == 0, result.output
    (record,) = [json.loads(path.read_text()) for path in records.glob("game-*.json")]
    faults = record["faults"]
    assert len(faults) == len(turns_of(record, 0)) // shouter.EVERY
    for fault in faults:
        assert fault["kind"] == "bot_error"
        assert len(fault["detail"]) < 400 and "more characters cut" in fault["detail"]
        assert not any(char in fault["detail"] for char in "\x1b\n\r\x07\u202e")
        assert "\\x1b[31mBOOM" in fault["detail"]
    assert not any(char in result.output for char in "\x1b\x07\u202e")
    assert len(result.output) < 1000 * (len(faults) + 10)


def test_a_bots_name_is_escaped(served: dict[str, str]) -> None:
    async def greet() -> BotIdentity:
        connection = RemoteConnection(served["shouter"])
        try:
            return await connection.open()
        finally:
            await connection.close()

    assert asyncio.run(greet()).name == "shouter\\x1b[5m\\n"


def test_a_hello_reply_past_the_message_size_is_said_in_words(tmp_path: Path) -> None:
    # the line gave gRPC's status: Hello failed: RESOURCE_EXHAUSTED Stream removed (CLIENT: Received message ...)
    bots = ["--bot", f"{BAD}={bad_command('bloated.py')}", "--bot", f"first={FIRST_LEGAL}"]
    result = rage_cli("match", *bots, "--games", "1", "--logs", str(tmp_path))
    assert result.exit_code == 1, result.output
    line = result.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        rf"cannot start the match: {BAD}: 127\.0\.0\.1:\d+: its Hello reply was larger than 4,194,304 bytes "
        r"\(5,242,\d\d\d bytes\)",
        line,
    ), line


def test_a_stream_message_past_the_message_size_is_said_in_words(served: dict[str, str], tmp_path: Path) -> None:
    result = match(with_bad(served, bad_command("bloated.py", "--in", "play")), AMIGO, 1, TimeControl(), tmp_path)
    details = {fault.detail for fault in result.games[0].figures.faults if fault.charged}
    assert details and all("its stream message was larger than 4,194,304 bytes (5,242," in d for d in details), details


def test_one_undecodable_message_costs_one_malformed_fault(served: dict[str, str], tmp_path: Path) -> None:
    """The bot is reconnected, and its later answers count: no timeouts, no forfeit."""
    mangler = bot_module("mangler")
    time = TimeControl(decision_ms=300, bank_ms=300, max_faults=3)
    result = match(with_bad(served, "mangler"), AMIGO, 1, time, tmp_path)
    assert_sound(result, 1)
    assert result.forfeited == set()
    turn = turns_of(result.games[0].record, 0)[mangler.MANGLE - 1]
    assert bad_faults(result) == [[("malformed", turn.round, turn.trick)]]
    assert "BotBatch" in result.games[0].figures.faults[0].detail
    assert_fallbacks(result)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 1, tmp_path))


def test_cheater_is_forfeited(served: dict[str, str], tmp_path: Path) -> None:
    time = TimeControl(max_faults=3)
    result = match(with_bad(served, "always_cheater"), AMIGO, 2, time, tmp_path)
    assert_sound(result, 2)
    assert result.forfeited == {BAD}
    assert result.stats[BAD].faults == 3 and result.stats[BAD].forfeited_games == 2
    # Charged for its first three decisions; from then on the fallback plays for it without asking,
    # and each of those decisions is marked in the record as the referee's.
    first = turns_of(result.games[0].record, 0)
    second = turns_of(result.games[1].record, result.games[1].figures.seats.index(BAD))
    assert bad_faults(result) == [
        [("illegal", t.round, t.trick) for t in first[:3]] + [("forfeited", t.round, t.trick) for t in first[3:]],
        [("forfeited", t.round, t.trick) for t in second],
    ]
    assert {fault.detail for game in result.games for fault in game.figures.faults if not fault.charged} == {
        "forfeited after 3 faults"
    }
    assert_fallbacks(result)
    assert_same_games(result, in_process([BAD, *TABLE], AMIGO, 2, tmp_path))


# ------------------------------------------------------------------ a bot that quits mid-game
def one_game_match(game: FinishedGame) -> MatchResult:
    """A match of one game, with its figures, as run_match would report it."""
    return MatchResult.of(game.figures.seats, [game])


async def _play_one(specs: Sequence[BotSpec], spec: GameSpec, logs: Path) -> tuple[FinishedGame, BotHandle]:
    """One game through handles this test holds, so their restarts can be read."""
    handles = {s.name: BotHandle(s, logs) for s in specs}
    try:
        await asyncio.gather(*(handle.start() for handle in handles.values()))
        result = await play_game(spec, handles, FaultLedger(spec.time.max_faults))
    finally:
        for handle in handles.values():  # the misbehaving bot first, as soon as the game is over
            await handle.stop()
    assert not any(handle.process is not None and handle.process.running for handle in handles.values())
    return result, handles[BAD]


def quitter_game(served: dict[str, str], tmp_path: Path, after: int, *options: str) -> tuple[MatchResult, BotHandle]:
    time = TimeControl(max_faults=NO_FORFEIT)
    spec = GameSpec(0, AMIGO, (BAD, *TABLE), FIRST_GAME_SEED, time)
    specs = with_bad(served, bad_command("quitter.py", "--after", str(after), *options))
    game, handle = asyncio.run(_play_one(specs, spec, tmp_path))
    result = one_game_match(game)
    assert_sound(result, 1)
    assert [outcome(game)] == [outcome(g) for g in in_process([BAD, *TABLE], AMIGO, 1, tmp_path).games]
    assert all(fault.seat == 0 and fault.kind.value == "crashed" for fault in game.figures.faults)
    assert_fallbacks(result)
    return result, handle


def test_quitter_is_relaunched(served: dict[str, str], tmp_path: Path) -> None:
    """The quitter dies once, on its 41st decision of the game's 65, and is brought back."""
    after = 40
    result, handle = quitter_game(served, tmp_path, after)
    faults = result.games[0].figures.faults
    first = turns_of(result.games[0].record, 0)[after]
    assert (faults[0].round, faults[0].trick) == (first.round, first.trick)
    assert len(faults) < len(turns_of(result.games[0].record, 0)) - after  # the relaunched bot played on
    assert 0 < handle.restarts <= MAX_RESTARTS
    log = (tmp_path / f"{BAD}.log").read_text()
    assert log.count("serving on port") >= 2
    assert "view out of step" not in log  # the relaunched process was told the game so far


def test_a_relaunch_leaves_nothing_of_the_old_stream_behind(
    served: dict[str, str], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The crashed bot's stream ends with it: no task is left running, and asyncio has nothing to report."""

    async def game_then_tasks_left() -> list[asyncio.Task[Any]]:
        await _play_one(with_bad(served, bad_command("quitter.py", "--after", "40")), spec, tmp_path)
        return [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]

    spec = GameSpec(0, AMIGO, (BAD, *TABLE), FIRST_GAME_SEED, TimeControl(max_faults=NO_FORFEIT))
    with caplog.at_level(logging.WARNING, logger="asyncio"):
        assert asyncio.run(game_then_tasks_left()) == []
        gc.collect()
    assert [record.getMessage() for record in caplog.records if record.name == "asyncio"] == []


@pytest.mark.slow
def test_quitter_that_exits_slowly_is_relaunched(served: dict[str, str], tmp_path: Path) -> None:
    """Each time the bot quits it costs one fault and one restart, until the restarts run out."""
    after = bot_module("quitter").AFTER
    result, handle = quitter_game(served, tmp_path, after, "--linger", "1")
    turns = turns_of(result.games[0].record, 0)
    deaths = [n * (after + 1) for n in range(1, MAX_RESTARTS + 2)]
    numbers = deaths + list(range(deaths[-1] + 1, len(turns) + 1))
    expected = [("crashed", turns[n - 1].round, turns[n - 1].trick) for n in numbers]
    assert bad_faults(result) == [expected]
    assert handle.restarts == MAX_RESTARTS
    assert (tmp_path / f"{BAD}.log").read_text().count("serving on port") == MAX_RESTARTS + 1
    last = result.games[0].figures.faults[-1].detail
    assert last.endswith(f"; it was relaunched {MAX_RESTARTS} times already, not again"), last


# ------------------------------------------------------------------ what a remote bot is told
def test_remote_bot_hears_the_game_end_before_it_is_stopped(served: dict[str, str], tmp_path: Path) -> None:
    recorder = bot_module("recorder")
    dump = tmp_path / "dump.bin"
    specs = with_bad(served, bad_command("recorder.py", "--dump", str(dump)))
    spec = GameSpec(0, AMIGO, (BAD, *TABLE), FIRST_GAME_SEED, TimeControl())
    game, _ = asyncio.run(_play_one(specs, spec, tmp_path))
    assert_sound(one_game_match(game), 1)
    messages = recorder.read_dump(dump)
    assert sum(message.HasField("request") for message in messages) == game.decisions // 4
    ends = [message for message in messages if message.HasField("end")]
    assert [message.game for message in ends] == [0 * MAX_SEATS + 0]
    assert list(ends[0].end.totals) == list(game.figures.totals)
    assert list(ends[0].end.places) == list(game.figures.places)
