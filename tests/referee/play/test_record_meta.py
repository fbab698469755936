"""Records that say who, when and how: ``meta``, each play's ``ms``, kept by the store and the export."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.play.meta import game_part
from rage_referee.play.spec import TimeControl
from rage_referee.seats import BotSpec
from rage_sdk.decisions import decisions
from rage_sdk.record import load_record
from rage_sdk.replay import verify
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
CASES = ROOT / "tests" / "data" / "conformance" / "cases"
BOTS = {
    "greedy": f"{EXAMPLES}/greedy_bot.py:GreedyBot",
    "random": f"{EXAMPLES}/random_bot.py:RandomBot",
    "loud": f"{ROOT}/tests/bots/loud.py:LoudBot",
}
DATE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def assert_meta_of_a_game(record: dict[str, Any], players: int) -> None:
    meta = record["meta"]
    assert DATE.match(meta["date"])
    rounds = len(record["rounds"])
    assert len(meta["bid_ms"]) == rounds
    assert all(len(bids) == players and all(type(ms) is int and ms >= 0 for ms in bids) for bids in meta["bid_ms"])
    for round_ in record["rounds"]:
        assert all(type(play["ms"]) is int and play["ms"] >= 0 for play in round_["plays"])


def test_a_match_records_meta_and_times(tmp_path: Path) -> None:
    specs = [BotSpec.of(name, target) for name, target in BOTS.items()]
    time = TimeControl(decision_ms=700, bank_ms=3000, max_faults=9)
    rules = Ruleset.of("amigo", rounds=[3, 2])
    result = asyncio.run(run_match(specs, rules, 3, Deals.public(4), time=time, records=tmp_path, log_dir=tmp_path))
    for game in result.games:
        record = json.loads((tmp_path / f"game-{game.index:05d}.json").read_text())
        assert record == game.record
        assert verify(json.dumps(record)).ok
        assert_meta_of_a_game(record, 3)
        meta = record["meta"]
        assert meta["match"] == "greedy vs random vs loud"
        assert meta["game"] == game.index and "set" not in meta
        assert meta["time"] == {"decision_ms": 700, "bank_ms": 3000, "max_faults": 9}
        announced = {name: bot for name, bot in zip(record["players"], meta["bots"])}
        assert announced["greedy"] == {"name": "greedy", "version": "1"}
        assert announced["random"] == {"name": "random", "version": "1"}
        # What a bot announced is untrusted: stored capped, with its control characters escaped.
        loud = announced["loud"]
        assert len(loud["name"].split("…")[0]) <= 100 and loud["name"].startswith("loud\\x1b[31m")
        assert "\x1b" not in loud["name"] and "\n" not in loud["version"] and loud["version"] == "2\\nrm -rf"


def test_league_store_and_export_keep_meta(tmp_path: Path) -> None:
    bots = "\n".join(f'"{name}" = "{target}"' for name, target in BOTS.items())
    file = tmp_path / "league.toml"
    file.write_text(
        f'name = "meta-league"\nplayers = 3\ngames = 6\nseed = 2\ndatabase = "league.sqlite"\nrecords = "records"\n'
        f'[ruleset]\npreset = "amigo"\nrounds = [2, 1]\n[bots]\n{bots}\n'
    )
    runner = CliRunner()
    ran = runner.invoke(app, ["league", "run", str(file)])
    assert ran.exit_code == 0, ran.output
    exported = runner.invoke(app, ["league", "export", str(file), "--out", str(tmp_path / "out")])
    assert exported.exit_code == 0, exported.output
    games = json.loads((tmp_path / "out" / "games.json").read_text())
    for game in games:
        written = json.loads((tmp_path / "records" / f"game-{game['index']:05d}.json").read_text())
        out = json.loads((tmp_path / "out" / "records" / f"game-{game['index']:05d}.json").read_text())
        assert out == written  # the store gave back what the referee wrote, meta and times included
        assert_meta_of_a_game(out, 3)
        assert out["meta"]["league"] == "meta-league"
        assert (out["meta"]["game"], out["meta"]["set"]) == (game["index"], game["set"])


def test_meta_and_ms_round_trip_through_the_record_model(tmp_path: Path) -> None:
    specs = [BotSpec.of(name, target) for name, target in BOTS.items()]
    rules = Ruleset.of("fundex", rounds=[2])
    result = asyncio.run(run_match(specs, rules, 1, records=tmp_path, log_dir=tmp_path))
    data = {key: value for key, value in result.games[0].record.items() if key != "faults"}
    record = load_record(json.dumps(data))
    assert record.meta == data["meta"]
    assert [play.ms for play in record.rounds[0].plays] == [play["ms"] for play in data["rounds"][0]["plays"]]
    assert record.to_json() == data


@pytest.mark.parametrize("name", sorted(path.name for path in (CASES / "legal").glob("*.json")))
def test_old_records_without_meta_still_verify(name: str) -> None:
    text = (CASES / "legal" / name).read_text()
    assert "meta" not in json.loads(text)
    verdict = verify(text)
    assert verdict.ok, verdict.message
    assert load_record(text).meta is None


@pytest.mark.parametrize("meta", [5, "x", None, [], {"bid_ms": "soon"}])
@pytest.mark.parametrize("ms", [-1, "fast", 1.5, None, [3]])
def test_meta_and_ms_are_never_checked(meta: Any, ms: Any) -> None:
    data = json.loads((CASES / "fundex_example.json").read_text())
    data["meta"] = meta
    for play in data["rounds"][0]["plays"]:
        play["ms"] = ms
    verdict = verify(json.dumps(data))
    assert verdict.ok, verdict.message
    record = load_record(json.dumps(data))
    assert record.meta == (meta if isinstance(meta, dict) else None)
    assert all(play.ms is None for play in record.rounds[0].plays)


def test_game_part_leaves_out_what_differs_between_runs() -> None:
    record = {"format": "f", "meta": {"date": "now"}, "faults": [], "rounds": [{"plays": [{"seat": 0, "ms": 3}]}]}
    assert game_part(record) == {"format": "f", "rounds": [{"plays": [{"seat": 0}]}]}


def test_the_record_walk_reads_each_decisions_time(tmp_path: Path) -> None:
    specs = [BotSpec.of(name, target) for name, target in BOTS.items()]
    result = asyncio.run(run_match(specs, Ruleset.of("amigo", rounds=[3, 2]), 1, log_dir=tmp_path))
    data = result.games[0].record
    walked = list(decisions(load_record(json.dumps(data))))
    bids = [d.ms for d in walked if d.is_bid]
    plays = [d.ms for d in walked if not d.is_bid]
    assert plays == [play["ms"] for round_ in data["rounds"] for play in round_["plays"]]
    # Bids are walked in bidding order (from the dealer's left); meta keeps them by seat.
    by_seat = [{d.seat: d.ms for d in walked if d.is_bid and d.round_number == r} for r in (1, 2)]
    assert [[times[seat] for seat in range(3)] for times in by_seat] == data["meta"]["bid_ms"]
    assert len(bids) == 6 and all(type(ms) is int for ms in bids)
    data["meta"]["bid_ms"] = [[1, "x"], None]
    assert all(d.ms is None for d in decisions(load_record(json.dumps(data))) if d.is_bid)
