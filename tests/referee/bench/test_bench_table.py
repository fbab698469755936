"""rage bench's one table shape: row labels left, figures right, notes beneath."""

from __future__ import annotations

import pytest
from rage_referee.cli.bench import figures_table, print_figures


def test_the_label_column_is_left_and_figures_right() -> None:
    table = figures_table("t", ("", "games/s", "decisions/s"), [("engine", "1.0", "2")])
    assert [column.justify for column in table.columns] == ["left", "right", "right"]
    assert table.row_count == 1 and table.title == "t"


def test_the_notes_follow_the_table_a_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    print_figures("a title", ("n", "s"), [("12", "0.5"), ("480", "1.5")], "first note", "second note")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].strip() == "a title" and lines[-2:] == ["first note", "second note"]
    assert [line for line in lines if line.startswith("│")] == ["│  12 │ 0.5 │", "│ 480 │ 1.5 │"]
