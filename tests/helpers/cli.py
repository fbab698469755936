"""The ``rage`` command run in this process for the tests of bad input: it must end in a line, never a traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rage_referee.cli import app
from typer.testing import CliRunner

runner = CliRunner()


def rage(*args: str | Path) -> Any:
    """``rage ARGS...``, checked to have ended in an exit, not an exception or a traceback."""
    result = runner.invoke(app, [str(arg) for arg in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    assert "Traceback" not in result.output
    return result


def one_line(text: str) -> str:
    """The one line ``text`` holds (it must hold exactly one)."""
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    return lines[0]
