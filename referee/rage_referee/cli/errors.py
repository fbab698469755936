"""Every failure of a command in one line, in one place: a bad command line names the option (or argument) and
what it takes (exit 2, never Typer's usage box); an error of the project (a :class:`~rage_sdk.errors.RageError`)
is its message, exiting with its ``exit_code``; never a traceback."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from rage_sdk.errors import RageError

# Typer (0.29) carries its own copy of Click as the private typer._click, and raises that copy's
# exceptions: plain `click` (installed beside it for Ray and uvicorn) is another package whose
# UsageError catches none of them. Typer makes public only BadParameter and a Context subclass, and
# no hook to print a usage error other than in its box, so the classes come from where Typer keeps
# them; tests/referee/cli/test_cli_errors.py fails at once if a Typer release moves them.
from typer._click import Context
from typer._click.exceptions import (
    BadParameter,
    MissingParameter,
    NoArgsIsHelpError,
    NoSuchOption,
    UsageError,
)
from typer.core import TyperArgument, TyperGroup

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
    if isinstance(error, NoSuchOption):
        negative = negative_argument(error)
        if negative is not None:
            return negative
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


def negative_argument(error: NoSuchOption) -> str | None:
    """A negative number given for a command's one number argument (``record LEAGUE -1``), which the command line
    took for an option: refused as that argument's value out of range, not as 'No such option: -1'."""
    if error.ctx is None or not re.fullmatch(r"-[0-9]+", error.option_name):
        return None
    numbers = [param for param in error.ctx.command.params if isinstance(param, TyperArgument) and allowed_range(param)]
    if len(numbers) != 1:
        return None
    return f"{parameter_name(numbers[0])}: {error.option_name} is out of range; it takes {allowed_range(numbers[0])}"


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


Kinds = type[BaseException] | tuple[type[BaseException], ...]
Wordings = Mapping[Kinds, tuple[str, int]]
"""What a command says of an error of some kinds: a line where ``{error}`` stands for its message (nothing else in
it is a placeholder, so it may quote a path as written), and the exit code."""


@contextmanager
def saying(wordings: Wordings, *, shortened: bool = False) -> Iterator[None]:
    """Say an error of the kinds listed as its wording, and exit with the code beside it (the first kind that
    matches wins); any other error goes on to :class:`OneLineErrors`, which shows a project error as it is.

    For where a command knows more than the error: ``{StoreError: ("stopped: {error}; run again to resume", 1)}``.
    ``shortened`` passes the message through :func:`rage_sdk.record.brief`, for messages quoting a record.
    """
    try:
        yield
    except BaseException as error:
        for kinds, (wording, code) in wordings.items():
            if isinstance(error, kinds):
                fail(wording.replace("{error}", shortened_text(str(error)) if shortened else str(error)), code)
        raise


def shortened_text(message: str) -> str:
    """``message`` with control characters escaped and long words cut (a record's text may be hostile)."""
    from rage_sdk.record import brief

    return brief(message)


@contextmanager
def project_errors_in_one_line() -> Iterator[None]:
    """Print a :class:`~rage_sdk.errors.RageError` as its message and exit with its ``exit_code``."""
    try:
        yield
    except RageError as error:
        fail(str(error), error.exit_code)


class OneLineErrors(TyperGroup):
    """The root ``rage`` group: every sub-command's bad parameters come out as :func:`one_line`, and every
    project error that leaves a command as its message."""

    def make_context(
        self, info_name: str | None, args: list[str], parent: Context | None = None, **extra: Any
    ) -> Context:
        with in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: Context) -> Any:
        with in_one_line(), project_errors_in_one_line():
            return super().invoke(ctx)
