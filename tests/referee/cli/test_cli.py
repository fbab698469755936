"""The ``rage`` command: ``replay verify``, ``replay show`` and ``bench engine``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from rage_referee.cli import app
from rage_referee.cli.common import PRESET_NAMES
from rage_sdk.record import record_of
from rage_sdk.rules import PRESETS, Ruleset
from rage_sdk.simulate import random_game
from typer.testing import CliRunner

CASES = Path(__file__).resolve().parents[2] / "data" / "conformance" / "cases"
RAGE = Path(sys.executable).with_name("rage")

runner = CliRunner()


def rage(*args: str) -> Any:
    return runner.invoke(app, list(args))


def expected() -> dict[str, Any]:
    return json.loads((CASES / "expected.json").read_text())


def case_names(kind: str) -> list[str]:
    return sorted(name for name, case in expected().items() if case["exit"] == {"legal": 0, "illegal": 1}.get(kind, 2))


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (the console wraps long lines)."""
    return " ".join(text.split())


def no_traceback(result: Any) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# --------------------------------------------------------------------------- replay verify


@pytest.mark.parametrize("name", case_names("legal"))
def test_verify_legal_case_json(name: str) -> None:
    want = expected()[name]
    result = rage("replay", "verify", str(CASES / name), "--json")
    assert result.exit_code == 0, result.output
    no_traceback(result)
    report = json.loads(result.stdout)
    assert len(report["rounds"]) == len(want["rounds"])
    for got, exp in zip(report["rounds"], want["rounds"]):
        assert got["trump"] == exp["trump"]
        assert got["trick_winners"] == exp["trick_winners"]
        assert got["tricks_won"] == exp["tricks_won"]
        assert got["points"] == exp["points"]
        assert sum(got["tricks_won"]) == len(got["trick_winners"])
    assert report["totals"] == want["totals"]
    assert report["places"] == want["places"]
    assert report["totals"] == [sum(r["points"][seat] for r in report["rounds"]) for seat in range(want["players"])]


def test_verify_legal_case_plain_text() -> None:
    result = rage("replay", "verify", str(CASES / "fundex_example.json"))
    assert result.exit_code == 0
    assert "legal" in result.stdout
    for name, total in zip("ABC", expected()["fundex_example.json"]["totals"]):
        assert f"{name} {total}" in result.stdout


@pytest.mark.parametrize("name", case_names("illegal"))
def test_verify_illegal_case(name: str) -> None:
    want = expected()[name]
    result = rage("replay", "verify", str(CASES / name), "--json")
    assert result.exit_code == 1, result.output
    no_traceback(result)
    report = json.loads(result.stdout)
    assert report["valid"] is False
    message = report["error"]
    assert flat(message) in flat(result.stderr)
    # The message names the round (and the trick and seat when a play breaks the rule), as the reference does.
    reference = want["message"]
    if reference.startswith("round "):
        where = reference.split(":")[0]  # "round 2, trick 7" or "round 6"
        assert message.startswith(where + ":"), (message, reference)
        seat = reference.split(": ", 1)[1].split(" played")[0].split(" bid")[0].split()[-1]
        assert f"seat {seat}" in message
    else:
        assert "result" in message


@pytest.mark.parametrize("name", case_names("malformed"))
def test_verify_malformed_case(name: str) -> None:
    result = rage("replay", "verify", str(CASES / name), "--json")
    assert result.exit_code == 2, result.output
    no_traceback(result)
    assert json.loads(result.stdout)["valid"] is False
    assert result.stderr.strip()
    reference_field = expected()[name]["message"].split(":")[0]
    assert reference_field in flat(result.stderr)


def test_verify_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    for extra in ([], ["--json"]):
        result = rage("replay", "verify", str(missing), *extra)
        assert result.exit_code == 2
        no_traceback(result)
        assert str(missing) in result.stderr.replace("\n", "")
        assert result.stderr.strip()


def test_verify_a_directory(tmp_path: Path) -> None:
    result = rage("replay", "verify", str(tmp_path))
    assert result.exit_code == 2
    no_traceback(result)
    assert result.stderr.strip()


def test_verify_text_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text("round 1: everyone passed\n")
    result = rage("replay", "verify", str(path))
    assert result.exit_code == 2
    no_traceback(result)
    assert "bad JSON" in flat(result.stderr)


def _crash_input(kind: str) -> str:
    """Inputs that are not well-formed records but make the checker raise instead of exiting 2."""
    if kind == "deep_nesting":
        return "[" * 100_000 + "]" * 100_000
    state, _ = random_game(Ruleset.of("amigo", rounds=[1]), 10, seed=3)
    data = record_of(state, [f"P{seat}" for seat in range(10)]).to_json()
    if kind == "unhashable_preset":
        data["ruleset"] = {"preset": ["amigo"]}
    else:  # a 12-card round that 10 players cannot be dealt, after the one recorded round
        data["ruleset"] = {"preset": "amigo", "rounds": [1, 12]}
    return json.dumps(data)


@pytest.mark.parametrize("kind", ["unhashable_preset", "deep_nesting", "rounds_override"])
def test_verify_inputs_that_once_crashed_the_checker(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(_crash_input(kind))
    result = rage("replay", "verify", str(path), "--json")
    assert result.exit_code == 2
    no_traceback(result)
    assert result.stderr.strip()


# --------------------------------------------------------------------------- replay show


def test_show_legal_record() -> None:
    result = rage("replay", "show", str(CASES / "fundex_example.json"))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Round 7" in out
    assert "yellow" in out  # the trump
    for token in ("b15", "g12", "r15", "notrump", "wild=y", "change->r"):
        assert token in out
    # Trick winners A, B, C (seat names) as rows, then the round's points and the totals.
    want = expected()["fundex_example.json"]
    lines = out.split("Final scores")[0].splitlines()
    trick_rows = [line for line in lines if line.strip("│ ").split(" ")[0] in {"1", "2", "3", "4"}]
    assert len(trick_rows) == 4
    for row, winner in zip(trick_rows, want["rounds"][0]["trick_winners"]):
        assert row.rstrip(" │").split()[-1] == "ABC"[winner]
    assert "totals: A 1, B 12, C 16" in out


def test_show_every_round_of_a_game() -> None:
    name = "legal/03_waddingtons_2p_s535.json"
    result = rage("replay", "show", str(CASES / name))
    assert result.exit_code == 0
    for number in range(1, 11):
        assert f"Round {number}:" in result.stdout
    totals = expected()[name]["totals"]
    assert "totals:" in result.stdout and all(str(total) in result.stdout.split("totals:")[-1] for total in totals)


def test_show_illegal_record() -> None:
    name = "illegal/card_not_in_hand.json"
    result = rage("replay", "show", str(CASES / name))
    assert result.exit_code == 1
    no_traceback(result)
    assert "round 1, trick 10: seat 2 played g7" in flat(result.stderr)


def test_show_malformed_record_and_missing_file(tmp_path: Path) -> None:
    result = rage("replay", "show", str(CASES / "malformed" / "unknown_token.json"))
    assert result.exit_code == 2
    no_traceback(result)
    assert "b16" in result.stderr
    result = rage("replay", "show", str(tmp_path / "nowhere.json"))
    assert result.exit_code == 2
    no_traceback(result)
    assert "nowhere.json" in result.stderr.replace("\n", "")


# --------------------------------------------------------------------------- bench engine


def test_bench_engine_json() -> None:
    result = rage("bench", "engine", "--seconds", "0.2", "--json", "--players", "3", "--ruleset", "fundex")
    assert result.exit_code == 0, result.output
    figures = json.loads(result.stdout)
    assert figures["games_per_s"] > 0
    assert figures["decisions_per_s"] > 0
    assert figures["decisions_per_s"] > figures["games_per_s"]
    assert figures["ruleset"] == "fundex"
    assert figures["players"] == 3


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["--ruleset", "uno"], ["--ruleset", "uno"]),
        (["--players", "11"], ["--players", "11"]),
        (["--players", "1"], ["--players", "1"]),
        (["--ruleset", "fundex", "--players", "9"], ["--players", "9"]),
        (["--players", "four"], ["--players"]),
    ],
)
def test_bench_engine_bad_options(args: list[str], fragments: list[str]) -> None:
    result = rage("bench", "engine", "--seconds", "0.2", *args)
    assert result.exit_code == 2
    no_traceback(result)
    for fragment in fragments:
        assert fragment in flat(result.stderr)
    assert result.stdout == ""


def test_bench_engine_rejects_tiny_seconds() -> None:
    result = rage("bench", "engine", "--seconds", "0")
    assert result.exit_code == 2
    no_traceback(result)


# --------------------------------------------------------------------------- the installed command


@pytest.mark.skipif(not RAGE.exists(), reason="the rage command is not installed next to this Python")
def test_installed_command() -> None:
    legal = subprocess.run(
        [str(RAGE), "replay", "verify", str(CASES / "fundex_example.json"), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert legal.returncode == 0, legal.stderr
    assert json.loads(legal.stdout)["totals"] == [1, 12, 16]
    illegal = subprocess.run(
        [str(RAGE), "replay", "verify", str(CASES / "illegal" / "wild_without_colour.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert illegal.returncode == 1
    assert "wild" in illegal.stderr
    assert "Traceback" not in illegal.stderr


RUN_ONLY = ("pydantic", "grpc", "google.protobuf", "sqlalchemy", "rage_sdk.state", "rage_referee.play.game")
"""What the commands run on, never needed to list them (rage_referee/cli/__init__.py)."""
HELP_IMPORTS = f"""
import sys
sys.argv = ["rage", "--help"]
from rage_referee.cli import main
try:
    main()
except SystemExit:
    pass
print(*sorted(name for name in {RUN_ONLY!r} if name in sys.modules))
"""


def test_help_imports_nothing_a_command_runs_on() -> None:
    done = subprocess.run([sys.executable, "-c", HELP_IMPORTS], capture_output=True, text=True, timeout=60, check=True)
    assert "Usage: rage" in done.stdout
    assert done.stdout.splitlines()[-1] == ""


def test_help_names_the_rules_presets() -> None:
    assert ", ".join(PRESETS) == PRESET_NAMES
    engine = typer.main.get_command(app).commands["bench"].commands["engine"]
    assert [param.help for param in engine.params if param.name == "ruleset"] == [f"A preset: {PRESET_NAMES}."]
