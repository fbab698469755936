"""``rage replay ask``: a recorded decision put to a bot again, with exactly the view its seat had in the game.

A recording bot keeps every view it is handed during a real match; the record walked decision by
decision (``rage_sdk.decisions``, the views of ``view_for``) and the same bot asked again must give
those very views back.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.records.ask import asked_spec
from rage_referee.seats import BotKind, BotSpec
from rage_sdk.decisions import decisions
from rage_sdk.record import load_record
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
BOTS = ROOT / "tests" / "bots"
RECORDER = f"{BOTS}/view_recorder.py:ViewRecorder"
FIRST_LEGAL = f"{BOTS}/botbase.py:FirstLegalBot"
GREEDY = f"{EXAMPLES}/greedy_bot.py:GreedyBot"
RANDOM = f"{EXAMPLES}/random_bot.py:RandomBot"
DUMP_ENV = "RAGE_VIEW_DUMP"
RULESETS = {
    "fundex-secret": Ruleset.of("fundex", bidding="secret"),
    "waddingtons-hidden": Ruleset.of("waddingtons", bidding="hidden", rounds=[5, 4, 3]),
    "amigo-choose": Ruleset.of("amigo", change_mode="choose", wild_declares_value=True, rounds=[6, 5]),
}
runner = CliRunner()

sys.path.insert(0, str(BOTS))
from view_recorder import read_views  # noqa: E402

sys.path.remove(str(BOTS))


def rage(*args: str | Path, env: dict[str, str] | None = None) -> Any:
    return runner.invoke(app, [str(arg) for arg in args], env={"COLUMNS": "250", **(env or {})})


def flat(text: str) -> str:
    return " ".join(text.split())


def play(folder: Path, rules: Ruleset) -> tuple[Path, list[Any]]:
    """A game with the recording bot at seat 0 (and greedy, random, first-legal), its record and the views it got."""
    dump = folder / "game.views"
    specs = [BotSpec.of(name, target) for name, target in [("rec", RECORDER), ("g", GREEDY), ("r", RANDOM)]]
    specs.append(BotSpec.of("f", FIRST_LEGAL))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DUMP_ENV, str(dump))
        asyncio.run(run_match(specs, rules, 1, Deals.public(3), records=folder, log_dir=folder))
    return folder / "game-00000.json", read_views(dump)


@pytest.fixture(scope="module", params=sorted(RULESETS))
def played(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Any]]:
    return play(tmp_path_factory.mktemp(request.param), RULESETS[request.param])


@pytest.fixture(scope="module")
def one_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("one"), Ruleset.of("amigo", rounds=[3, 2]))[0]


def test_the_record_walk_gives_the_views_of_the_game(played: tuple[Path, list[Any]]) -> None:
    record_file, in_game = played
    walked = [decision.view for decision in decisions(load_record(record_file.read_text())) if decision.seat == 0]
    assert len(walked) == len(in_game) > 0
    for number, (mine, theirs) in enumerate(zip(walked, in_game), start=1):
        assert mine == theirs, f"decision {number} of seat 0"


def test_ask_all_rebuilds_every_view_and_the_same_bot_agrees(played: tuple[Path, list[Any]], tmp_path: Path) -> None:
    record_file, in_game = played
    dump = tmp_path / "asked.views"
    result = rage("replay", "ask", record_file, RECORDER, "--seat", "0", "--all", env={DUMP_ENV: str(dump)})
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == f"{len(in_game)} decisions, 0 differ"
    assert "differs" not in result.stdout
    asked = read_views(dump)
    assert len(asked) == len(in_game)
    for number, (again, then) in enumerate(zip(asked, in_game), start=1):
        assert again == then, f"decision {number} of seat 0"


def test_ask_all_with_another_bot_lists_what_differs(played: tuple[Path, list[Any]]) -> None:
    record_file, in_game = played
    result = rage("replay", "ask", record_file, FIRST_LEGAL, "--seat", "0", "--all")
    assert result.exit_code == 0, result.output
    last = result.stdout.strip().splitlines()[-1]
    found = re.fullmatch(r"(\d+) decisions, (\d+) differ", last)
    assert found is not None, last
    assert int(found[1]) == len(in_game) and int(found[2]) > 0
    assert result.stdout.count("differs") == int(found[2])
    assert "same" not in result.stdout  # only the decisions that differ are listed


def test_ask_one_decision(played: tuple[Path, list[Any]], tmp_path: Path) -> None:
    record_file, in_game = played
    record = load_record(record_file.read_text())
    mine = [decision for decision in decisions(record) if decision.seat == 0]
    for decision in (mine[0], mine[len(mine) // 2], mine[-1]):  # a bid, and plays
        dump = tmp_path / f"{decision.number}.views"
        args = ["--round", str(decision.round_number), "--trick", str(decision.trick)]
        result = rage("replay", "ask", record_file, RECORDER, "--seat", "0", *args, env={DUMP_ENV: str(dump)})
        assert result.exit_code == 0, result.output
        assert read_views(dump) == [in_game[decision.number - 1]]
        assert "same" in result.stdout and "differs" not in result.stdout
        assert f"round {decision.round_number}" in result.stdout


def test_a_seeded_random_bot_asked_every_decision_answers_as_it_did(played: tuple[Path, list[Any]]) -> None:
    record_file, _ = played
    result = rage("replay", "ask", record_file, RANDOM, "--seat", "2", "--all")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(" decisions, 0 differ")


def test_ask_a_launched_bot(one_game: Path, tmp_path: Path) -> None:
    record_file = one_game
    command = shlex.join([sys.executable, str(EXAMPLES / "greedy_bot.py")])
    result = rage("replay", "ask", record_file, command, "--seat", "1", "--all", "--logs", tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().endswith(" decisions, 0 differ")
    assert (tmp_path / "asked.log").is_file()


def test_bot_given_as_for_rage_match() -> None:
    assert asked_spec("x=examples/greedy_bot.py:GreedyBot") == BotSpec(
        "x", "examples/greedy_bot.py:GreedyBot", BotKind.MODULE
    )
    assert asked_spec("localhost:5005").kind == "address"
    assert asked_spec("python bot.py --level=3") == BotSpec("asked", "python bot.py --level=3", "command")


@pytest.mark.parametrize(
    ("args", "code", "fragment"),
    [
        (["--seat", "0"], 2, "either --round R --trick T"),
        (["--seat", "0", "--all", "--round", "1"], 2, "either --round R --trick T"),
        (["--seat", "0", "--round", "1"], 2, "--round and --trick go together"),
        (["--seat", "7", "--all"], 2, "--seat: no seat 7 among 4 players"),
        (["--seat", "0", "--round", "1", "--trick", "99"], 2, "no decision of seat 0 there"),
        (["--seat", "0", "--round", "99", "--trick", "0"], 2, "no decision of seat 0 there"),
    ],
)
def test_bad_options_get_one_clear_line(one_game: Path, args: list[str], code: int, fragment: str) -> None:
    record_file = one_game
    result = rage("replay", "ask", record_file, GREEDY, *args)
    assert result.exit_code == code, result.output
    assert fragment in flat(result.stderr)
    assert "Traceback" not in result.output


def test_bots_that_cannot_be_asked(one_game: Path, tmp_path: Path) -> None:
    record_file = one_game
    result = rage("replay", "ask", record_file, f"{tmp_path}/nowhere.py:Bot", "--seat", "0", "--all")
    assert result.exit_code == 2 and "no file" in flat(result.stderr)
    command = shlex.join([sys.executable, "-c", "raise SystemExit(3)"])
    result = rage("replay", "ask", record_file, command, "--seat", "0", "--all", "--logs", tmp_path)
    assert result.exit_code == 1 and "exited with code 3" in flat(result.stderr)
    assert "Traceback" not in result.output


def test_records_that_cannot_be_asked_about(tmp_path: Path) -> None:
    cases = ROOT / "tests" / "data" / "conformance" / "cases"
    result = rage("replay", "ask", cases / "illegal" / "card_not_in_hand.json", GREEDY, "--seat", "0", "--all")
    assert result.exit_code == 1 and "illegal" in result.stderr
    result = rage("replay", "ask", cases / "malformed" / "unknown_token.json", GREEDY, "--seat", "0", "--all")
    assert result.exit_code == 2 and "b16" in result.stderr
    result = rage("replay", "ask", tmp_path / "nowhere.json", GREEDY, "--seat", "0", "--all")
    assert result.exit_code == 2 and "nowhere.json" in flat(result.stderr)


def test_an_old_record_without_meta_can_be_asked_about() -> None:
    record = ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json"
    data = json.loads(record.read_text())
    assert "meta" not in data
    result = rage("replay", "ask", record, GREEDY, "--seat", "1", "--all")
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1].startswith("5 decisions, ")


def test_an_in_process_bot_that_cannot_be_made_is_charged_not_a_traceback(one_game: Path, tmp_path: Path) -> None:
    unmade = f"{BOTS}/unmade.py:UnmadeBot"
    asked: list[str | Path] = ["--seat", "0", "--round", "1", "--trick", "0", "--logs", tmp_path / "logs"]
    result = rage("replay", "ask", one_game, unmade, *asked)
    assert result.exit_code == 0, result.output
    assert "bot_error: the bot of this game could not be made: RuntimeError: cannot ma" in flat(result.stdout)
    assert "making the bot failed" in (tmp_path / "logs" / "asked.log").read_text()
    specs = [BotSpec.of("unmade", unmade), BotSpec.of("greedy", GREEDY)]
    match = asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[2, 1]), 2, log_dir=tmp_path))
    for game in match.games:
        seat = game.figures.seats.index("unmade")
        assert game.figures.faults and all(fault.seat == seat for fault in game.figures.faults)
        assert game.figures.faults[0].kind.value == "bot_error"


def test_views_a_served_bot_got_are_rebuilt_for_an_in_process_one(tmp_path: Path) -> None:
    served = shlex.join([sys.executable, str(BOTS / "view_recorder.py")])
    specs = [BotSpec.of("rec", served), BotSpec.of("g", GREEDY), BotSpec.of("r", RANDOM)]
    rules = Ruleset.of("amigo1985", first_action_of_kind_only=True, action_cards_anytime=True, rounds=[6, 4])
    dump = tmp_path / "game.views"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(DUMP_ENV, str(dump))
        asyncio.run(run_match(specs, rules, 1, Deals.public(5), records=tmp_path, log_dir=tmp_path))
    in_game = read_views(dump)
    asked_dump = tmp_path / "asked.views"
    record_file = tmp_path / "game-00000.json"
    result = rage("replay", "ask", record_file, RECORDER, "--seat", "0", "--all", env={DUMP_ENV: str(asked_dump)})
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == f"{len(in_game)} decisions, 0 differ"
    assert read_views(asked_dump) == in_game


def test_a_time_control_past_the_limits_is_the_default(one_game: Path) -> None:
    record = json.loads(one_game.read_text())
    record["meta"] = (record.get("meta") or {}) | {"time": {"decision_ms": 10**300, "bank_ms": 2**64}}
    huge = one_game.with_name("huge-time.json")
    huge.write_text(json.dumps(record))
    result = rage("replay", "ask", huge, FIRST_LEGAL, "--seat", "0", "--round", "1", "--trick", "0")
    assert result.exit_code == 0, result.output[-2000:]
    assert "same" in result.stdout


def test_ask_all_lists_a_faulted_decision_as_faulted_not_same(one_game: Path, tmp_path: Path) -> None:
    """A fault whose fallback happened to match the record was counted and shown as the same decision."""
    asked = ["--seat", "3", "--all", "--logs", tmp_path]
    result = rage("replay", "ask", one_game, f"{BOTS}/unmade.py:UnmadeBot", *asked)
    assert result.exit_code == 0, result.output
    decisions_of_seat = sum(1 for d in decisions(load_record(one_game.read_text())) if d.seat == 3)
    assert (
        result.stdout.strip().splitlines()[-1]
        == f"{decisions_of_seat} decisions, 0 differ, {decisions_of_seat} faulted"
    )
    assert result.stdout.count("faulted") == decisions_of_seat + 1 and " same" not in result.stdout
