"""Every module the installed packages import is the standard library's, the project's own, or declared."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = {"rage_sdk", "rage_referee"}


def imported(tree: Path) -> set[str]:
    """The top-level names of every absolute import in the ``.py`` files under ``tree``."""
    names: set[str] = set()
    for path in tree.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def declared() -> set[str]:
    """The dependencies and those of every extra but ``dev`` (a module for an extra imports it, as ray does)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = [spec for name, specs in project["optional-dependencies"].items() if name != "dev" for spec in specs]
    specs = [*project["dependencies"], *extras]
    return {re.split(r"[<>=!~ \[;]", spec, maxsplit=1)[0].lower().replace("_", "-") for spec in specs}


def test_every_third_party_import_is_a_declared_dependency() -> None:
    third_party = imported(ROOT / "sdk") | imported(ROOT / "referee")
    third_party -= set(sys.stdlib_module_names) | OWN | {"__future__"}
    providers = packages_distributions()
    undeclared = {
        name: providers.get(name, ["?"])
        for name in third_party
        if not {dist.lower().replace("_", "-") for dist in providers.get(name, [])} & declared()
    }
    assert not undeclared, f"imported but not declared in pyproject.toml: {undeclared}"
