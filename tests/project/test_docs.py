"""The project's own pages: docs/rules.md describes every preset and option of the engine, exactly;
the pages link the repository's docs, never a path outside it; the league file's reference names every key
the league file takes; every Python snippet of the README and of the pages that teach runs."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from pathlib import Path

import pytest
from pydantic import BaseModel
from rage_referee.league.config import LeagueConfig, TimeSettings
from rage_referee.runner.settings import RunnerSettings
from rage_referee.sandbox import SandboxSettings
from rage_sdk.rules import EDITIONS, OPTION_NAMES, PRESETS, Ruleset

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text()
PAGES = sorted(
    ["README.md", "proto/README.md", *(str(page.relative_to(ROOT)) for page in (ROOT / "docs").rglob("*.md"))]
)


def rows(first_cell: str) -> list[list[str]]:
    """The cells of every table row of rules.md whose first cell matches ``first_cell``."""
    found = []
    for line in RULES.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(first_cell, cells[0]):
            found.append(cells)
    return found


def code(cell: str) -> str:
    match = re.fullmatch(r"`([^`]*)`", cell)
    assert match, f"{cell!r} is not one `value`"
    return match[1]


def test_the_preset_table_gives_every_option_of_every_preset() -> None:
    (header,) = rows("option")[:1]
    presets = [code(cell) for cell in header[1:]]
    assert sorted(presets) == sorted(PRESETS)
    table = {code(cells[0]): cells[1:] for cells in rows(r"`\w+`") if len(cells) == len(presets) + 1}
    assert set(OPTION_NAMES) <= set(table), f"options missing from the preset table: {set(OPTION_NAMES) - set(table)}"
    for option in OPTION_NAMES:
        for preset, cell in zip(presets, table[option]):
            text = code(cell)
            value = json.loads(text) if text[:1] in "[-0123456789" or text in ("true", "false") else text
            assert value == PRESETS[preset][option], f"{option} of {preset}: rules.md says {text}"


def test_the_deck_and_player_rows_match_the_editions() -> None:
    (header,) = rows("")[:1]
    presets = [code(cell) for cell in header[1:]]
    (deck,) = rows(r"deck: .*")
    (players,) = rows("players")
    for preset, deck_cell, players_cell in zip(presets, deck[1:], players[1:]):
        edition = EDITIONS[preset]
        counts = (edition.wild, edition.notrump, edition.change, edition.plus5, edition.minus5)
        assert deck_cell.startswith("/".join(map(str, counts)) + " ("), (preset, deck_cell)
        assert f"({len(Ruleset.of(preset).deck)}" in deck_cell, (preset, deck_cell)
        assert players_cell == f"{edition.min_players}-{edition.max_players}", (preset, players_cell)


@pytest.mark.parametrize("option", OPTION_NAMES)
def test_every_option_is_explained_with_every_value(option: str) -> None:
    explained = [cells for cells in rows(f"`{option}`") if len(cells) == 3]
    assert explained, f"rules.md does not explain {option}"
    values = set(re.findall(r"`([^`]*)`", explained[0][1]))
    kind = Ruleset.model_fields[option].annotation
    if isinstance(kind, type) and issubclass(kind, StrEnum):
        assert values == {member.value for member in kind}, option
    elif "Bool" in str(kind):
        assert values == {"true", "false"}, option


def test_the_scoring_section_doubles_on_a_sweep_what_the_engine_doubles() -> None:
    """A double_tricks sweep doubles t * points_per_trick and counts a won plus5 or minus5 once, as the engine
    does (tests/sdk/test_rules_scoring.py) and the public conformance case 06 shows (a sweep of 6 tricks with a
    plus5 scores 17); the page counted the plus5 and minus5 in the trick points it doubled."""
    scoring = RULES.split("## Scoring a round")[1].split("\n## ")[0]
    bullets = {
        m[1]: " ".join(m[2].split()) for m in re.finditer(r"- \*\*([a-z ]+)\*\*,?:? (.*?)(?=\n- |\n\n)", scoring, re.S)
    }
    assert bullets["trick points"] == "`t * points_per_trick`;"
    assert "5 for each `plus5`" in bullets["card points"]
    assert "counts the trick points twice and the card points once" in bullets["sweep"]


@pytest.mark.parametrize("page", PAGES)
def test_pages_link_the_repositorys_own_docs(page: str) -> None:
    text = (ROOT / page).read_text()
    assert "../shared" not in text, f"{page} points outside the repository"
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (ROOT / page).parent.joinpath(target).exists(), f"{page} links {target}, which is not there"


def python_blocks(page: str) -> list[str]:
    """The fenced ``python`` blocks of ``page``, in order."""
    return re.findall(r"^```python[^\n]*\n(.*?)^```", (ROOT / page).read_text(), re.MULTILINE | re.DOTALL)


SNIPPET_PAGES = [page for page in PAGES if python_blocks(page)]


def test_the_front_page_and_the_pages_that_teach_have_snippets() -> None:
    assert {"README.md", "docs/tutorial/first-bot.md", "docs/how-to/search-bot.md"} <= set(SNIPPET_PAGES)


@pytest.mark.parametrize("page", SNIPPET_PAGES)
def test_every_python_snippet_runs(page: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each block runs as written, in a fresh namespace, as a module imported (a bot's main() is not called)."""
    monkeypatch.chdir(tmp_path)
    for number, block in enumerate(python_blocks(page)):
        exec(compile(block, f"{page}, python block {number + 1}", "exec"), {"__name__": "snippet"})


def keys_of_table(title: str) -> set[str]:
    """The keys in the first column of the table under the league file reference's heading ``title``."""
    text = (ROOT / "docs" / "reference" / "league-file.md").read_text()
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `(\w+)` \|", section, re.MULTILINE))


@pytest.mark.parametrize(
    ("title", "model", "tables"),
    [
        ("Top-level keys", LeagueConfig, {"bots", "ruleset", "time", "sandbox", "runner"}),
        ("`[time]`", TimeSettings, set()),
        ("`[sandbox]`", SandboxSettings, set()),
        ("`[runner]`", RunnerSettings, set()),
    ],
)
def test_the_league_file_reference_names_every_key(title: str, model: type[BaseModel], tables: set[str]) -> None:
    text = (ROOT / "docs" / "reference" / "league-file.md").read_text()
    assert keys_of_table(title) == set(model.model_fields) - tables, title
    for table in tables:
        assert f"\n## `[{table}]`\n" in text, f"the league file reference has no section for [{table}]"


def rage_command_lines(page: str) -> list[str]:
    """Every line of ``page``'s fenced blocks that runs ``rage``, its comment and a shell's ``\\`` continuation
    joined; a ``[--option ...]`` the page shows as optional is read as given."""
    lines = []
    for body in re.findall(r"^```[^\n]*\n(.*?)^```", (ROOT / page).read_text(), re.MULTILINE | re.DOTALL):
        body = re.sub(r"\\\n\s*", " ", body)
        lines += [line.removeprefix("$ ").strip() for line in body.splitlines()]
    found = []
    for line in lines:
        if line.startswith("rage "):
            found.append(re.sub(r"\s+#.*", "", line).replace("[", "").replace("]", "").replace("|", " "))
    return found


DOC_PAGES = [page for page in PAGES if page.startswith("docs/") or page == "README.md"]


@pytest.mark.parametrize("page", DOC_PAGES)
def test_every_rage_command_of_the_pages_exists_with_its_options(page: str) -> None:
    import shlex

    import typer
    from rage_referee.cli import app

    root = typer.main.get_command(app)
    for line in rage_command_lines(page):
        words = shlex.split(line)[1:]
        command = root
        while hasattr(command, "commands") and words and words[0] in command.commands:
            command = command.commands[words.pop(0)]
        assert not hasattr(command, "commands"), f"{page}: {line!r} names no command of rage"
        options = {name for param in command.params for name in (*param.opts, *param.secondary_opts)}
        for word in words:
            option = word.split("=", 1)[0]
            if option.startswith("--"):
                assert option in options, f"{page}: {line!r}: rage {command.name} has no {option}"


def test_the_league_how_to_shows_the_example_league_file_as_it_is() -> None:
    """The page's copy ran its bots as ``python examples/...``, from a folder the commands do not start in."""
    page = (ROOT / "docs" / "how-to" / "league.md").read_text()
    shown = page.split("```toml\n", 1)[1].split("```", 1)[0]
    example = (ROOT / "examples" / "league.toml").read_text()
    assert shown == example[example.index("name = ") :]
