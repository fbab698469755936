"""The project's own pages: docs/rules.md describes every preset and option of the engine, exactly;
the pages link the repository's docs, never a path outside it."""

from __future__ import annotations

import json
import re
from enum import StrEnum
from pathlib import Path

import pytest
from rage_sdk.rules import EDITIONS, OPTION_NAMES, PRESETS, Ruleset

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "docs" / "rules.md").read_text()
PAGES = ["README.md", "proto/README.md", "docs/rules.md", "docs/record.md", "docs/sdk.md", "docs/ray.md"]


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


@pytest.mark.parametrize("page", PAGES)
def test_pages_link_the_repositorys_own_docs(page: str) -> None:
    text = (ROOT / page).read_text()
    assert "../shared" not in text, f"{page} points outside the repository"
    for target in re.findall(r"\]\(([^)#]+)", text):
        if not target.startswith("http"):
            assert (ROOT / page).parent.joinpath(target).exists(), f"{page} links {target}, which is not there"
