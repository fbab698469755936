"""A settings model's refusal in one line: the first problem pydantic found, where it is and what it is."""

from __future__ import annotations

import json
from typing import NamedTuple

from pydantic import ValidationError

from .text import bot_text

LONGEST_INPUT = 40
"""Characters of a wrong-typed value quoted back."""


class Problem(NamedTuple):
    """The first problem of a :class:`~pydantic.ValidationError`, in words fit for one line."""

    where: str
    """The key's dotted path (``runner.workers``); empty for the model as a whole."""
    message: str
    """What is wrong: ``missing``, or pydantic's message without its ``Value error,`` prefix."""
    kind: str
    """pydantic's error type (``missing``, ``string_pattern_mismatch``, ...)."""


def first_problem(error: ValidationError) -> Problem:
    problem = error.errors(include_url=False)[0]
    message = "missing" if problem["type"] == "missing" else str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"].endswith("_type") and "input" in problem:  # a value of the wrong type: say which
        message += f", not {bot_text(json.dumps(problem['input'], default=str), LONGEST_INPUT)}"
    return Problem(".".join(str(part) for part in problem["loc"]), message, problem["type"])
