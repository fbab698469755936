"""What the ``rage`` sub-commands share: consoles, the ruleset option, clean failures."""

from __future__ import annotations

import json
from typing import NoReturn

import typer
from pydantic import ValidationError
from rage_sdk.record import ruleset_of
from rage_sdk.rules import Ruleset
from rich.console import Console

out = Console(highlight=False)
err = Console(stderr=True, highlight=False, soft_wrap=True)  # a message stays one line when piped

RULESET_HELP = 'A preset (amigo, fundex, waddingtons, amigo1985) or a JSON object {"preset": ..., OPTION: VALUE}.'


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``message`` to stderr and exit with ``code``: never a traceback."""
    err.print(message, markup=False)  # the message may quote input: never read as markup
    raise typer.Exit(code)


def parse_ruleset(text: str, option: str = "--ruleset") -> Ruleset:
    """A ruleset from the command line, or a clean exit naming what was wrong."""
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
