"""What the ``rage`` sub-commands share: consoles, the ruleset option, clean failures."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from .console import err as err
from .console import out as out

if TYPE_CHECKING:
    from rage_sdk.rules import Ruleset

    from ..league.store import Store


class Format(StrEnum):
    """How a table is printed: for the terminal, or as Markdown, CSV or JSON."""

    TABLE = "table"
    MARKDOWN = "markdown"
    CSV = "csv"
    JSON = "json"


COMMAND_HELP = "a command, run with --port N appended or with N in place of its {port}"
PRESET_NAMES = "amigo, fundex, waddingtons, amigo1985"
"""The presets of ``rage_sdk.rules.PRESETS`` for help text, read without the rules (a test holds them equal)."""
RULESET_HELP = f'A preset ({PRESET_NAMES}) or a JSON object {{"preset": ..., OPTION: VALUE}}.'


def told_made_folder(store: Store) -> Store:
    """``store``, having said in one line that its database's folder was missing and is made now, if it was."""
    tell_made_folder(store.made_folder)
    return store


def tell_made_folder(folder: Path | None) -> None:
    """Say in one line that ``folder``, a database's, was missing and is made now (nothing for none)."""
    if folder is not None:
        err.print(f"{folder}: no such folder; made it for the database", markup=False)


def number_list(option: str, text: str, example: str, most: float | None = None) -> list[int]:
    """The whole numbers of a comma-separated option such as ``--games 1000,10000``, each at least 1
    (and at most ``most``); else one line naming ``option`` and exit 2."""
    try:
        numbers = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        numbers = []
    if not numbers or min(numbers) < 1 or (most is not None and max(numbers) > most):
        limit = "" if most is None else f", at most {most:g}"
        fail(f"{option}: expected whole numbers like {example} (each 1 or more{limit}), not {text!r}")
    return numbers


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` to stderr as plain text (no console markup) and exit with ``code``: never a traceback."""
    err.print(message, markup=False)
    raise typer.Exit(code)


@contextmanager
def refusing_unwritable(option: str) -> Iterator[None]:
    """Turn a file that cannot be written into one line naming ``option`` and the path (exit 2).

    Use it as a decorator of a command, or around the writing.
    """
    try:
        yield
    except OSError as error:
        where = error.filename if error.filename is not None else "a file"
        fail(f"{option}: cannot write {where}: {error.strerror or error}")


def parse_ruleset(text: str, option: str = "--ruleset") -> Ruleset:
    """A ruleset from the command line, or a clean exit naming what was wrong."""
    from pydantic import ValidationError
    from rage_sdk.record import ruleset_of

    value: object = text
    if text.lstrip().startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as error:
            fail(f"{option}: not valid JSON: {error}")
    try:
        return ruleset_of(value)
    except (ValueError, ValidationError) as error:
        fail(f"{option}: {error}")
