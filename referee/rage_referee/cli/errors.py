"""Bad command lines in one line: the option (or argument) and what it takes, exit 2, never Typer's usage box."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

# Typer (0.29) carries its own copy of Click as the private typer._click, and raises that copy's
# exceptions: plain `click` (installed beside it for Ray and uvicorn) is another package whose
# UsageError catches none of them. Typer makes public only BadParameter and a Context subclass, and
# no hook to print a usage error other than in its box, so the classes come from where Typer keeps
# them; tests/referee/cli/test_cli_errors.py fails at once if a Typer release moves them.
from typer._click import Context
from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, UsageError
from typer.core import TyperGroup

from ..text import bot_text
from .common import fail

LONGEST_VALUE = 60
"""Characters of a refused value quoted back (the command line's text is capped and escaped as a bot's is)."""


def allowed_range(param: Any) -> str | None:
    """The range a number option takes, in words (``1 to 10``, ``at least 0.1``); None when it has none."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if low is not None and high is not None:
        return f"{low:,} to {high:,}"
    if low is not None:
        return f"at least {low:,}"
    if high is not None:
        return f"at most {high:,}"
    return None


def refusal(error: BadParameter) -> tuple[str, str] | None:
    """The kind of validation error behind ``error`` and the value refused (printable, capped), when known."""
    errors = getattr(error.__cause__, "errors", None)
    found = errors() if callable(errors) else []
    if not found or "input" not in found[0]:
        return None
    value = str(found[0]["input"])
    if not value.isprintable():
        value = repr(value)
    return str(found[0].get("type", "")), bot_text(value, LONGEST_VALUE)


NOT_A = {"int_parsing": "a whole number", "int_from_float": "a whole number", "float_parsing": "a number"}
"""What a number option's value must be, by the validation error of a value that is not one."""


def parameter_name(param: Any) -> str:
    """``--games`` for an option (its longest name), ``NEW`` for an argument."""
    opts: list[str] = [opt for opt in getattr(param, "opts", []) if opt.startswith("-")]
    if opts:
        return max(opts, key=len)
    return str(getattr(param, "display_name_raw", None) or param.name).upper()


def one_line(error: UsageError) -> str:
    """The message of a bad command line, naming the parameter and what it takes."""
    if not isinstance(error, BadParameter) or error.param is None:
        return bot_text(error.format_message().replace("\n", " "))
    name, allowed = parameter_name(error.param), allowed_range(error.param)
    if isinstance(error, MissingParameter):
        return f"{name}: required, and not given"
    refused = refusal(error)
    if refused is None:
        return f"{name}: {bot_text(error.message)}"
    kind, value = refused
    if kind in NOT_A:
        return f"{name}: {value} is not {NOT_A[kind]}" + (f"; it takes {allowed}" if allowed else "")
    if allowed is not None and kind.startswith(("greater_than", "less_than")):
        return f"{name}: {value} is out of range; it takes {allowed}"
    message = bot_text(error.message.removeprefix("Value error, ").rstrip("."))
    return f"{name}: {message}" + ("" if value in message else f" (got {value})")


@contextmanager
def in_one_line() -> Iterator[None]:
    """Print a usage error as one line and exit 2; a bare command still shows its help."""
    try:
        yield
    except NoArgsIsHelpError:
        raise
    except UsageError as error:
        if error.ctx is not None and error.ctx.resilient_parsing:
            raise
        fail(one_line(error), error.exit_code)


class OneLineErrors(TyperGroup):
    """The root ``rage`` group: every sub-command's bad parameters come out as :func:`one_line`."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        with in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with in_one_line():
            return super().invoke(ctx)
