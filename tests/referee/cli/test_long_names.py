"""A 10,000-character name full of terminal escapes, in every command that prints a player's or bot's name:
each shows it shortened (text.NAME_LIMIT) and escaped, never raw, in every table, line and page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rage_referee.cli.markdown import cell as markdown_cell
from rage_referee.text import NAME_LIMIT, name_text

from tests.helpers.cli import rage

ROOT = Path(__file__).resolve().parents[3]
GREEDY = f"{ROOT / 'examples' / 'greedy_bot.py'}:GreedyBot"
RANDOM = f"{ROOT / 'examples' / 'random_bot.py'}:RandomBot"
NAME = "\x1b[31m\x1b]0;owned\x07" + "n" * 9981 + "\u202e\r\nX"
RAW = ("\x1b", "\x07", "\u202e", "\r", "n" * (NAME_LIMIT + 1))
"""What none of the output may hold: the escapes as such, or more of the name than a name is shown."""
assert len(NAME) == 10_000


def safe(output: str, named: bool = True, raw_text: tuple[str, ...] = RAW) -> str:
    """``output``, checked to hold none of ``raw_text``, and (when ``named``) the name shortened."""
    for raw in raw_text:
        assert raw not in output, (raw, output[max(0, output.find(raw) - 200) :][:400])
    assert not named or name_text(NAME) in output or name_text(NAME)[: NAME_LIMIT // 2] in output
    return output


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("long-names") / "records"
    result = rage("match", "--bot", f"{NAME}={GREEDY}", "--bot", f"plain={RANDOM}", "--games", "2", "--seed", "1",
                  "--records", folder, "--logs", folder.parent / "logs")  # fmt: skip
    assert result.exit_code == 0, result.output
    safe(result.output)
    return folder


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("long-names-league")
    path = folder / "league.toml"
    lines = [f"name = {json.dumps(NAME)}", "players = 2", "games_per_table = 2", "seed = 1"]
    lines += ['database = "league.sqlite"', "[ruleset]", 'preset = "amigo"', "[time]", "decision_ms = 1000"]
    lines += ["[bots]", f"{json.dumps(NAME)} = {json.dumps(GREEDY)}", f"plain = {json.dumps(RANDOM)}"]
    path.write_text("\n".join(lines) + "\n")
    result = rage("league", "run", path, "--logs", folder / "logs")
    assert result.exit_code == 0, result.output
    safe(result.output)
    return path


def test_rage_match_shows_the_name_shortened_and_escaped(records: Path) -> None:
    assert sorted(path.name for path in records.iterdir()) == ["game-00000.json", "game-00001.json"]


def test_rage_match_json_keeps_the_whole_name(tmp_path: Path) -> None:
    """Data keeps the name as given: only what is shown is cut."""
    result = rage("match", "--bot", f"{NAME}={GREEDY}", "--bot", f"plain={RANDOM}", "--games", "1", "--seed", "1",
                  "--json", "--logs", tmp_path)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert NAME in json.loads(result.stdout)["bots"]


@pytest.mark.parametrize("seat", [None, "0", "1"])
def test_rage_replay_show(records: Path, seat: str | None) -> None:
    result = rage("replay", "show", records / "game-00000.json", *(["--seat", seat] if seat else []))
    assert result.exit_code == 0, result.output
    safe(result.output)


def test_rage_replay_verify(records: Path) -> None:
    result = rage("replay", "verify", records / "game-00001.json")
    assert result.exit_code == 0, result.output
    safe(result.output, named=False)


def test_rage_replay_ask(records: Path, tmp_path: Path) -> None:
    result = rage("replay", "ask", records / "game-00000.json", GREEDY, "--seat", "0", "--all", "--logs", tmp_path)
    assert result.exit_code in (0, 1), result.output
    safe(result.output, named=False)


@pytest.mark.parametrize("options", [[], ["--format", "markdown"], ["--crosstable"], ["--pairs"]])
def test_rage_ratings(league: Path, options: list[str]) -> None:
    result = rage("ratings", "--league", league, *options)
    assert result.exit_code == 0, result.output
    markdown = "markdown" in options  # a cell's backslashes and brackets escaped again, as Markdown's
    safe(result.output, named=not markdown)
    assert not markdown or markdown_cell(name_text(NAME)) in result.output


def test_rage_league_report_pages(league: Path, tmp_path: Path) -> None:
    result = rage("league", "report", league, "--out", tmp_path / "site")
    assert result.exit_code == 0, result.output
    pages = sorted((tmp_path / "site").rglob("*.html"))
    assert len(pages) > 3
    for page in pages:  # a bot's page is named by the first 60 characters of its name made safe, and a hash
        safe(page.read_text(), raw_text=(*RAW[:-1], "n" * 61))


def test_rage_test(tmp_path: Path) -> None:
    bots = (f"{NAME}={GREEDY}", f"plain={RANDOM}", "--field", f"other={RANDOM}")
    result = rage("test", *bots, "--elo1", "1000", "--max-games", "60", "--seed", "1",
                  "--db", tmp_path / "tests.sqlite", "--logs", tmp_path)  # fmt: skip
    assert result.exit_code in (0, 1), result.output  # decided
    safe(result.output)


def test_a_launched_bot_of_that_name_plays_and_keeps_a_log_of_its_own(tmp_path: Path) -> None:
    """Its log's file name is cut (a file name holds 255 bytes) and hashed; the match was refused with the name raw."""
    launched = f"python {ROOT / 'examples' / 'random_bot.py'}"
    other = NAME.replace("owned", "owner")  # shown apart: they differ within the first 60 characters
    result = rage("match", "--bot", f"{NAME}={launched}", "--bot", f"{other}={launched}", "--games", "1",
                  "--seed", "1", "--logs", tmp_path)  # fmt: skip
    assert result.exit_code == 0, result.output[:2000]
    safe(result.output)
    logs = sorted(tmp_path.glob("*.log"))
    assert len(logs) == 2 and all(len(log.name) < 255 for log in logs)


def test_two_names_shown_alike_are_refused_in_one_line(tmp_path: Path) -> None:
    """Two bots whose names differ past the first 60 characters played, each table showing the same name twice."""
    shown = name_text(NAME)
    for args in (
        ["match", "--bot", f"{NAME}={GREEDY}", "--bot", f"{NAME[:-1]}={RANDOM}", "--games", "1"],
        [
            "test",
            f"{NAME}={GREEDY}",
            f"{NAME[:-1]}={RANDOM}",
            "--field",
            f"plain={RANDOM}",
            "--db",
            tmp_path / "t.sqlite",
        ],
    ):
        result = rage(*args)
        assert result.exit_code == 2, result.output[:2000]
        said = safe(result.output)
        assert f"names must differ within the first 60 characters, as they are shown ({shown} twice)" in said
    league = tmp_path / "league.toml"
    lines = ["players = 2", "games_per_table = 2", 'database = "league.sqlite"', "[ruleset]", 'preset = "amigo"']
    lines += ["[bots]", f"{json.dumps(NAME)} = {json.dumps(GREEDY)}", f"{json.dumps(NAME[:-1])} = {json.dumps(RANDOM)}"]
    league.write_text("\n".join(lines) + "\n")
    result = rage("league", "run", league)
    assert result.exit_code == 2, result.output[:2000]
    assert "names must differ within the first 60 characters" in safe(result.output)
