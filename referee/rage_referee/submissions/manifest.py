"""``rage-bot.toml``: what a submitted bot is called, how it runs, and what it needs.

::

    name = "my-bot"
    runtime = "python"            # python, node, or command (a program on the referee's machine)
    run = "python bot.py"         # started with --listen unix:PATH appended (or at {listen})
    build = "python -m compileall ."   # optional, run once in the sandbox, with no network

A build sees its own files only (and the read-only system): a build command that names a path outside
them (absolute, ``~``, or with ``..``) is refused.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
import stat
import tomllib
from enum import StrEnum
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from rage_sdk.errors import RageError

from ..problems import first_problem

MANIFEST = "rage-bot.toml"
MAX_COMMAND = 1000
MAX_MANIFEST = 64 * 1024
"""A manifest's bytes, at most."""
RUNTIME_PROGRAMS = {"python": ("python", "python3"), "node": ("node",)}
_PATHS = re.compile(r"[\s=:,;'\"()<>|&]+")
"""What separates the paths an argument may name (``--out=/x``, ``a:/b``, a shell command's words)."""


class ManifestError(RageError, ValueError):
    """A manifest that cannot be used; the message names the field."""


class Runtime(StrEnum):
    PYTHON = "python"
    NODE = "node"
    COMMAND = "command"


def _command(value: str) -> str:
    if not value.strip():
        raise ValueError("must not be empty")
    if len(value) > MAX_COMMAND:
        raise ValueError(f"is {len(value)} characters long; at most {MAX_COMMAND}")
    if any(ord(char) < 32 for char in value):
        raise ValueError("must be one line, without control characters")
    try:
        shlex.split(value)
    except ValueError as error:
        raise ValueError(f"cannot be split into words: {error}") from None
    if "{port}" in value:
        raise ValueError("a submitted bot listens on a Unix socket: use {listen}, not {port}")
    return value


def _outside(argument: str) -> str | None:
    """The first path ``argument`` names outside the bot's own folder, if any."""
    for part in _PATHS.split(argument):
        if part.startswith(("/", "~")) or ".." in PurePosixPath(part).parts:
            return part
    return None


class BotManifest(BaseModel):
    """A validated ``rage-bot.toml``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", description="letters, digits, _ . -; 64 at most")
    runtime: Runtime
    run: str
    build: str | None = None

    @field_validator("run", "build")
    @classmethod
    def _commands(cls, value: str | None) -> str | None:
        return None if value is None else _command(value)

    @field_validator("build")
    @classmethod
    def _build_in_its_folder(cls, value: str | None) -> str | None:
        for argument in [] if value is None else shlex.split(value)[1:]:
            if (path := _outside(argument)) is not None:
                shown = path if len(path) <= 60 else f"{path[:57]}..."
                raise ValueError(f"names {shown!r}, outside the bot's folder: a build sees its own files only")
        return value

    @model_validator(mode="after")
    def _program_fits_runtime(self) -> BotManifest:
        program = shlex.split(self.run)[0]
        expected = RUNTIME_PROGRAMS.get(self.runtime.value)
        if expected is not None and program not in expected:
            raise ValueError(f"run: a {self.runtime.value} bot runs with {expected[0]}, not {program!r}")
        return self


def load_manifest(folder: Path) -> BotManifest:
    """Read and check ``folder/rage-bot.toml``; :class:`ManifestError` names what is wrong."""
    try:
        data = tomllib.loads(_manifest_text(folder / MANIFEST))
    except FileNotFoundError:
        raise ManifestError(f"{MANIFEST}: missing; a submission's top folder must hold it") from None
    except OSError as error:  # its message without the path: the referee's
        raise ManifestError(f"{MANIFEST}: cannot read: {error.strerror or type(error).__name__}") from None
    except UnicodeDecodeError as error:
        raise ManifestError(f"{MANIFEST}: cannot read: {error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ManifestError(f"{MANIFEST}: not valid TOML: {error}") from None
    except RecursionError:
        raise ManifestError(f"{MANIFEST}: arrays or tables nested too deeply") from None
    try:
        return BotManifest.model_validate(data)
    except RecursionError:
        raise ManifestError(f"{MANIFEST}: arrays or tables nested too deeply") from None
    except ValidationError as error:
        try:
            where, message, kind = first_problem(error, BotManifest)
        except RecursionError:
            raise ManifestError(f"{MANIFEST}: arrays or tables nested too deeply") from None
        if kind == "string_pattern_mismatch":
            message = "letters, digits, _ . - only, starting with a letter or digit, 64 at most"
        raise ManifestError(f"{MANIFEST}: {where + ': ' if where else ''}{message}") from None


def _manifest_text(path: Path) -> str:
    """The manifest's text, read only from a regular file of its folder (a build may leave a link to
    ``/dev/zero`` or a FIFO in its place, read by the referee as root) and at most :data:`MAX_MANIFEST` bytes."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        if error.errno != errno.ELOOP:
            raise
        raise ManifestError(f"{MANIFEST}: not a regular file (a link)") from None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise ManifestError(f"{MANIFEST}: not a regular file")
        data = file.read(MAX_MANIFEST + 1)
    if len(data) > MAX_MANIFEST:
        raise ManifestError(f"{MANIFEST}: larger than {MAX_MANIFEST:,} bytes")
    return data.decode("utf-8-sig")  # an editor's BOM too
