"""Every module the installed packages import is the standard library's, the project's own, or declared by
its distribution: the SDK's (``sdk/pyproject.toml``) by it alone, so a bot's environment holds none of the
referee's dependencies."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SDK_DEPENDENCIES = {"grpcio", "grpcio-health-checking", "protobuf", "pydantic"}
"""All a bot's environment needs besides the SDK."""


def _run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``, which run only for the type checker."""
    found: list[ast.AST] = []
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for child in node.orelse:
                found += [child, *_run_time_nodes(child)]
            continue
        found += [node, *_run_time_nodes(node)]
    return found


def imported(tree: Path) -> set[str]:
    """The top-level names of every absolute import run in the ``.py`` files under ``tree``."""
    names: set[str] = set()
    for path in tree.rglob("*.py"):
        for node in _run_time_nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def declared(pyproject: Path) -> set[str]:
    """The dependencies and those of every extra but ``dev`` (a module for an extra imports it, as ray does)."""
    project = tomllib.loads(pyproject.read_text())["project"]
    optional = project.get("optional-dependencies", {})
    extras = [spec for name, specs in optional.items() if name != "dev" for spec in specs]
    return {requirement_name(spec) for spec in [*project["dependencies"], *extras]}


def requirement_name(spec: str) -> str:
    """The normalised distribution name of a requirement (``grpcio>=1.85`` is ``grpcio``)."""
    return re.split(r"[<>=!~ \[;(]", spec, maxsplit=1)[0].lower().replace("_", "-")


@pytest.mark.parametrize(
    ("package", "pyproject", "own"),
    [
        ("sdk/rage_sdk", "sdk/pyproject.toml", {"rage_sdk"}),
        ("referee/rage_referee", "pyproject.toml", {"rage_referee", "rage_sdk"}),
    ],
)
def test_every_third_party_import_is_a_declared_dependency(package: str, pyproject: str, own: set[str]) -> None:
    third_party = imported(ROOT / package) - set(sys.stdlib_module_names) - own - {"__future__"}
    providers = packages_distributions()
    undeclared = {
        name: providers.get(name, ["?"])
        for name in third_party
        if not {dist.lower().replace("_", "-") for dist in providers.get(name, [])} & declared(ROOT / pyproject)
    }
    assert not undeclared, f"imported by {package}/ but not declared in {pyproject}: {undeclared}"


def test_the_sdk_depends_on_grpc_protobuf_and_pydantic_alone_and_the_referee_on_the_sdk() -> None:
    assert declared(ROOT / "sdk" / "pyproject.toml") == SDK_DEPENDENCIES
    assert "rage-sdk" in declared(ROOT / "pyproject.toml")
