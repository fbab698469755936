"""A settings model's refusal in one line: the first problem pydantic found, where it is and what it is."""

from __future__ import annotations

import difflib
import json
import typing
from collections.abc import Sequence
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

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


def first_problem(error: ValidationError, model: type[BaseModel] | None = None) -> Problem:
    """The problem to name first: an unknown setting (a mistyped key explains the one then missing), with the
    known setting of ``model`` it is closest to, else pydantic's first."""
    problems = error.errors(include_url=False)
    problem = next((problem for problem in problems if problem["type"] == "extra_forbidden"), problems[0])
    if problem["type"] == "extra_forbidden":
        *table, key = problem["loc"]
        guess = difflib.get_close_matches(str(key), settings_at(model, table), n=1)
        message = f"unknown setting {bot_text(str(key), LONGEST_INPUT)!r}" + (
            f" (did you mean {guess[0]}?)" if guess else ""
        )
        return Problem(".".join(map(str, table)), message, problem["type"])
    message = "missing" if problem["type"] == "missing" else str(problem["msg"]).removeprefix("Value error, ")
    if problem["type"].endswith("_type") and "input" in problem:  # a value of the wrong type: say which
        message += f", not {bot_text(json.dumps(problem['input'], default=str), LONGEST_INPUT)}"
    return Problem(".".join(str(part) for part in problem["loc"]), message, problem["type"])


def settings_at(model: type[BaseModel] | None, table: Sequence[int | str]) -> list[str]:
    """The settings ``model`` knows in its table at ``table`` (a path of keys), as a file spells them."""
    for key in table:
        field = model.model_fields.get(str(key)) if model is not None else None
        model = None if field is None else _model_in(field.annotation)
    if model is None:
        return []
    return [field.alias or name for name, field in model.model_fields.items()]


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The settings model a field holds (itself, or the one of ``Model | None``), if any."""
    for candidate in (annotation, *typing.get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return candidate
    return None
