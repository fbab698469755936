"""The Python a sandboxed bot sees: the referee's interpreter and, of its installed packages, the SDK alone.

A bot (its build too) runs the referee's Python, whose environment holds the referee's every dependency
(SQLAlchemy, scipy, numpy, starlette, ...). In the sandbox each folder of installed packages is covered
with an empty one, and only the files of the ``rage-sdk`` distribution and of the distributions it
requires, transitively, are shown again inside it: what ``pip install ./sdk`` installs.
"""

from __future__ import annotations

import re
import site
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

SDK = "rage-sdk"


@dataclass(frozen=True)
class BotPython:
    covered: tuple[Path, ...]
    """The folders of installed packages, each covered with an empty one."""
    shown: tuple[Path, ...]
    """The files and folders of the SDK's distributions, shown again inside them."""


def requirements(distribution: metadata.Distribution) -> list[str]:
    """The names of the distributions ``distribution`` requires without an extra."""
    specs = [spec for spec in distribution.requires or [] if not re.search(r"\bextra\s*==", spec)]
    return [re.split(r"[<>=!~ \[;(]", spec, maxsplit=1)[0] for spec in specs]


def closure(name: str) -> list[metadata.Distribution]:
    """Distribution ``name`` and every installed one it requires, transitively (a requirement whose marker
    does not hold here is not installed, so not found)."""
    found: dict[str, metadata.Distribution] = {}
    pending = [name]
    while pending:
        key = pending.pop().lower().replace("_", "-")
        if key in found:
            continue
        try:
            found[key] = metadata.distribution(key)
        except metadata.PackageNotFoundError:
            continue
        pending += requirements(found[key])
    return list(found.values())


def entries(distribution: metadata.Distribution) -> set[Path]:
    """The top-level files and packages of ``distribution`` in its folder of installed packages; inside a
    folder that is no package (``google``, a namespace, or ``__pycache__``), its own entries there."""
    folder = Path(str(distribution.locate_file("")))
    shown = set()
    for file in distribution.files or []:
        parts = file.parts
        if not parts or parts[0] == "..":  # a script installed elsewhere
            continue
        top = folder / parts[0]
        whole = len(parts) == 1 or (top / "__init__.py").exists() or top.suffix in (".dist-info", ".data")
        shown.add(top if whole else top / parts[1])
    return {path for path in shown if path.exists()}


@cache
def bot_python() -> BotPython:
    """What of the referee's installed packages a sandboxed bot sees (computed once per process)."""
    covered = tuple(sorted({Path(folder) for folder in site.getsitepackages() if Path(folder).is_dir()}))
    shown = {entry for distribution in closure(SDK) for entry in entries(distribution)}
    return BotPython(covered, tuple(sorted(path for path in shown if any(c in path.parents for c in covered))))
