"""``rage replay show``: the whole game with its faults, and with ``--seat`` only what that seat could see."""

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
from rage_referee.records.show import decision_row, faults_of
from rage_referee.records.text import seat_names
from rage_referee.seats import BotSpec
from rage_sdk.cards import Card
from rage_sdk.decisions import bid_times, decisions
from rage_sdk.record import LONGEST_MS, load_record, record_of
from rage_sdk.rules import Ruleset
from rage_sdk.simulate import random_game
from typer.testing import CliRunner

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples"
BOTS = ROOT / "tests" / "bots"
# A card token; a wild's declared colour and value (after "=") and a change's colour (after "->") are no cards.
TOKEN = re.compile(r"(?<![\w=>-])([roygbp]\d{1,2}|wild|notrump|change|plus5|minus5)(?![\w])")
runner = CliRunner()


def rage(*args: str | Path) -> Any:
    return runner.invoke(app, [str(arg) for arg in args], env={"COLUMNS": "250"})


def flat(text: str) -> str:
    return " ".join(text.split())


def tokens_in(text: str) -> set[str]:
    return set(TOKEN.findall(text))


@pytest.fixture(scope="module")
def blundered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A match game in which seat 1 makes illegal bids and fails in every third play."""
    folder = tmp_path_factory.mktemp("blunder")
    specs = [
        BotSpec.of("greedy", f"{EXAMPLES}/greedy_bot.py:GreedyBot"),
        BotSpec.of("blunder", f"{BOTS}/blunder.py:BlunderBot"),
        BotSpec.of("random", f"{EXAMPLES}/random_bot.py:RandomBot"),
    ]
    rules = Ruleset.of("amigo", rounds=[5, 4, 3])
    asyncio.run(run_match(specs, rules, 1, Deals.public(8), records=folder, log_dir=folder))
    return folder / "game-00000.json"


def turned_up(pile: list[str]) -> set[str]:
    """The cards turned from the top of the pile for the first trump: up to the first coloured one."""
    turned = set()
    for token in pile:
        turned.add(token)
        if Card.of(token).is_coloured:
            break
    return turned


def round_openings(text: str) -> list[str]:
    """Per round, the output from its title to its first bid row: what was shown before any card was played."""
    lines = text.splitlines()
    starts = [k for k, line in enumerate(lines) if line.startswith("Round ")]
    out = []
    for start in starts:
        end = next(k for k in range(start, len(lines)) if re.match(r"^│ *bid ", lines[k]))
        out.append("\n".join(lines[start : end + 1]))
    return out


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_show_seat_never_shows_a_card_only_another_seat_holds(blundered: Path, seat: int) -> None:
    record = load_record(blundered.read_text())
    whole = rage("replay", "show", blundered)
    alone = rage("replay", "show", blundered, "--seat", str(seat))
    assert whole.exit_code == alone.exit_code == 0, alone.output
    for round_, shown_whole, shown_alone in zip(
        record.rounds, round_openings(whole.stdout), round_openings(alone.stdout)
    ):
        others = {card for other, hand in enumerate(round_.hands) if other != seat for card in hand}
        only_theirs = others - set(round_.hands[seat]) - turned_up(round_.pile)
        assert only_theirs, "the test needs cards only another seat holds"
        assert only_theirs <= tokens_in(shown_whole)  # the whole game shows every hand before the bids
        assert not only_theirs & tokens_in(shown_alone), f"seat {seat} was shown {only_theirs & tokens_in(shown_alone)}"
        assert set(round_.hands[seat]) <= tokens_in(shown_alone)


@pytest.mark.parametrize(("preset", "players", "seed"), [("amigo", 4, 1), ("fundex", 5, 2), ("waddingtons", 3, 3)])
def test_every_decision_row_shows_only_what_its_view_holds(preset: str, players: int, seed: int) -> None:
    overrides: dict[str, Any] = {"bidding": "secret"} if preset == "fundex" else {}
    state, _ = random_game(Ruleset.of(preset, **overrides), players, seed)
    record = record_of(state, list("ABCDE"[:players]))
    for decision in decisions(record):
        view = decision.view
        printed = tokens_in(" ".join(cell.plain for cell in decision_row(decision, record.players, None)))
        assert printed <= {card.token for card in view.cards_seen()}
        assert {card.token for card in view.hand} <= printed
        if view.ruleset.bidding.value != "open":
            hidden = [seat for seat, bid in enumerate(view.bids) if bid is None and seat != decision.seat]
            row = decision_row(decision, record.players, None)[2].plain
            assert all(f"{'ABCDE'[seat]} ?" in row for seat in hidden) or view.trick


def test_show_marks_faults_where_they_happened(blundered: Path) -> None:
    data = json.loads(blundered.read_text())
    faults = faults_of(data)
    assert {fault.kind.value for fault in faults} == {"illegal", "bot_error"}
    whole = rage("replay", "show", blundered)
    assert whole.exit_code == 0, whole.output
    text = whole.stdout
    for fault in faults:
        where = "bid" if fault.trick == 0 else f"trick {fault.trick}"
        assert f"! round {fault.round}, {where}: blunder {fault.kind.value}" in " ".join(text.split())
    marked_bids = [line for line in text.splitlines() if re.match(r"^│ *bid ", line)]
    assert all(line.count("!") == 1 for line in marked_bids)  # the blunder seat's bid, every round
    assert "\x1b" not in text and "[bold]help[/bold]" in text  # a bot's text is printed as text, escaped
    own = rage("replay", "show", blundered, "--seat", "1").stdout
    assert "illegal" in own and "bot_error" in own and "(fallback)" in own
    other = rage("replay", "show", blundered, "--seat", "0").stdout
    assert "illegal" not in other and "bot_error" not in other  # another seat's faults are not its to see


def test_show_prints_hands_meta_and_times(blundered: Path) -> None:
    data = json.loads(blundered.read_text())
    whole = rage("replay", "show", blundered).stdout
    assert "match greedy vs blunder vs random, game 0" in whole
    assert "1 blunder (blunder 3)" in whole and data["meta"]["date"] in whole
    first = data["rounds"][0]["hands"][0]
    assert " ".join(sorted(first, key=lambda token: Card.of(token).id)) in whole
    own = rage("replay", "show", blundered, "--seat", "0").stdout
    assert "the game as seat 0 (greedy) saw it" in own
    times = [play["ms"] for play in data["rounds"][0]["plays"] if play["seat"] == 0]
    assert times and all(str(ms) in own for ms in times)


def test_show_seat_out_of_range(blundered: Path) -> None:
    result = rage("replay", "show", blundered, "--seat", "3")
    assert result.exit_code == 2
    assert "--seat: no seat 3 among 3 players" in " ".join(result.stderr.split())


def test_odd_meta_and_faults_are_read_as_far_as_they_make_sense(tmp_path: Path) -> None:
    data = json.loads((ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json").read_text())
    data["meta"] = {"bots": [5, {"name": 3}, {"name": "c\x07", "version": None}], "time": "x", "league": ["a"]}
    data["meta"]["bid_ms"] = 3
    good = {"seat": 0, "kind": "timeout", "round": 7, "trick": 1, "detail": "late", "fallback": "b15"}
    data["faults"] = [1, {"kind": "nope"}, {**good, "seat": "0"}, good]
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data))
    assert faults_of(data) == faults_of({"faults": [good]})
    whole = rage("replay", "show", path)
    assert whole.exit_code == 0, whole.output
    assert "! round 7, trick 1: A timeout: late; the referee played b15" in whole.stdout
    assert "2 C (c\\x07)" in whole.stdout and "league ['a']" in whole.stdout
    alone = rage("replay", "show", path, "--seat", "0")
    assert alone.exit_code == 0 and "timeout: late" in alone.stdout
    asked = rage("replay", "ask", path, f"{EXAMPLES}/greedy_bot.py:GreedyBot", "--seat", "0", "--all")
    assert asked.exit_code == 0, asked.output


def test_a_huge_game_or_set_number_in_meta_is_left_out(tmp_path: Path) -> None:
    data = json.loads((ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json").read_text())
    data["meta"] = {"game": 10**3000, "set": -1, "league": "cup"}
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data))
    result = rage("replay", "show", path)
    assert result.exit_code == 0, result.output
    assert "league cup" in result.stdout
    assert "game" not in result.stdout.split("league cup")[1].splitlines()[0] and "set -1" not in result.stdout
    assert max(map(len, result.stdout.splitlines())) < 300


def test_a_time_no_time_control_allows_is_left_out(tmp_path: Path) -> None:
    data = json.loads((ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json").read_text())
    data["meta"] = {"bid_ms": [[10**1000, 7, 2**70]]}
    for play in data["rounds"][0]["plays"]:
        play["ms"] = 10**1000
    data["rounds"][0]["plays"][1]["ms"] = LONGEST_MS
    path = tmp_path / "times.json"
    path.write_text(json.dumps(data))
    for args in ([], ["--seat", "1"]):
        result = rage("replay", "show", path, *args)
        assert result.exit_code == 0, result.output
        assert "0000000000" not in result.stdout and max(map(len, result.stdout.splitlines())) < 300
    assert decisions_times(path) == ([None, 7, None], LONGEST_MS)


def decisions_times(path: Path) -> tuple[list[int | None], int | None]:
    record = load_record(path.read_text())
    return bid_times(record.meta, 0, 3), record.rounds[0].plays[1].ms


def test_seats_that_share_a_name_are_told_apart(tmp_path: Path) -> None:
    """Every seat of the record is A: each is shown with its seat number (the tables, tricks and totals read
    'A, A, A'); names shown alike only once cut to their length count as alike."""
    data = json.loads((ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json").read_text())
    data["players"] = ["A", "A", "A"]
    path = tmp_path / "same.json"
    path.write_text(json.dumps(data))
    whole = rage("replay", "show", path)
    assert whole.exit_code == 0, whole.output
    assert "totals: A (seat 0) 1, A (seat 1) 12, A (seat 2) 16" in whole.stdout
    assert "dealer A (seat 2)" in whole.stdout and "│ A (seat 1) │" in whole.stdout  # a trick's winner
    alone = rage("replay", "show", path, "--seat", "1")
    assert alone.exit_code == 0 and "bids: A (seat 0) 2, A (seat 1) ?, A (seat 2) ?" in alone.stdout
    assert "A (seat 0) b15 A (seat 1) y0 A (seat 2) b2 won by A (seat 1)" in alone.stdout
    verified = rage("replay", "verify", path)
    assert "totals: A (seat 0) 1 (place 3), A (seat 1) 12 (place 2), A (seat 2) 16 (place 1)" in verified.stdout
    asked = rage("replay", "ask", path, f"{EXAMPLES}/greedy_bot.py:GreedyBot", "--seat", "1", "--round", "7",
                 "--trick", "2")  # fmt: skip
    assert asked.exit_code == 0 and "bids: A (seat 0) 2, A (seat 1) 2, A (seat 2) 1" in flat(asked.stdout), asked.output


@pytest.mark.parametrize(
    ("players", "shown"),
    [
        (["A", "B", "C"], ["A", "B", "C"]),
        (["A", "B", "A"], ["A (seat 0)", "B", "A (seat 2)"]),
        (["A", "A", "A (seat 1)"], ["A (seat 0)", "A (seat 1)", "A (seat 1) (seat 2)"]),
        (["x" * 70 + "1", "x" * 70 + "2"], [f"{'x' * 59}… (seat 0)", f"{'x' * 59}… (seat 1)"]),
    ],
)
def test_seat_names(players: list[str], shown: list[str]) -> None:
    assert seat_names(players) == shown


def test_a_whole_game_opens_with_a_summary_line_and_ends_with_its_final_scores() -> None:
    path = ROOT / "tests" / "data" / "conformance" / "cases" / "fundex_example.json"
    result = rage("replay", "show", path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    ruleset = load_record(path.read_text()).ruleset.describe()
    assert f"{ruleset}; A, B, C; winner C; scores A 1, B 12, C 16" in lines
    final = lines[[line.strip() for line in lines].index("Final scores") :]
    rows = [line.replace("│", " ").split() for line in final if line.startswith("│")]
    assert [row[:4] for row in rows] == [["1", "2", "C", "16"], ["2", "1", "B", "12"], ["3", "0", "A", "1"]]
