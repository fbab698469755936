"""Tables printed as Markdown: a name holding Markdown's own characters reads as itself in its cell, and every
row keeps its cells (a ``|`` in a name ended its cell and broke the table's columns)."""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from rage_referee.cli.markdown import cell

from tests.helpers.cli import rage

ROOT = Path(__file__).resolve().parents[3]
GREEDY = f"{ROOT / 'examples' / 'greedy_bot.py'}:GreedyBot"
RANDOM = f"{ROOT / 'examples' / 'random_bot.py'}:RandomBot"
NAMES = ("a|b \\| *bold* _it_", "<img src=x onerror=alert(1)> `x` [l](u) &amp; $x$ ~~s~~ \\")
"""Two bots' names: pipes (one already backslashed), emphasis, HTML, code, a link, an entity, math, a trailing \\."""


def cells(markdown: str) -> list[list[str]]:
    """The table's rows as a CommonMark reader with GitHub's tables sees them: each cell as HTML."""
    parser = MarkdownIt("commonmark").enable("table")
    rows: list[list[str]] = []
    for token in parser.parse(markdown):
        if token.type == "tr_open":
            rows.append([])
        elif token.type == "inline" and rows:
            rows[-1].append(parser.renderer.renderInline(token.children or [], parser.options, {}))
    return rows


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("markdown-names")
    lines = ['name = "md"', "players = 2", "games_per_table = 2", "seed = 1", "[ruleset]", 'preset = "amigo"']
    lines += [
        "[bots]",
        f"{json.dumps(NAMES[0])} = {json.dumps(GREEDY)}",
        f"{json.dumps(NAMES[1])} = {json.dumps(RANDOM)}",
    ]
    path = folder / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    result = rage("league", "run", path, "--logs", folder / "logs")
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("options", [[], ["--pairs"], ["--crosstable"]], ids=["ratings", "pairs", "crosstable"])
def test_a_name_reads_as_itself_in_its_cell(league: Path, options: list[str]) -> None:
    result = rage("ratings", "--league", league, "--format", "markdown", *options)
    assert result.exit_code == 0, result.output
    rows = cells(result.stdout)
    assert len(rows) == 3 and all(len(row) == len(rows[0]) for row in rows), rows
    shown = sorted(map(html.escape, NAMES))  # as text: no tag, no code, no link
    assert sorted(row[0] for row in rows[1:]) == shown
    if options:  # the matrix's columns are the bots too
        assert sorted(rows[0][1:]) == shown


def test_a_cell_escapes_what_markdown_reads() -> None:
    assert cell("a|b") == "a\\|b"
    assert cell("\\|") == "\\\\\\|"
    assert cell("+12 ±3.1 55% -0/+0 (forfeited 2) 1-0-1") == "+12 ±3.1 55% -0/+0 (forfeited 2) 1-0-1"
