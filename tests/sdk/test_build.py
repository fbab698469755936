"""The engine runs compiled where it was built so, and ``RAGE_PURE_PYTHON=1`` runs it from its ``.py`` files.

CI runs the suite once as installed and again with ``RAGE_PURE_PYTHON=1`` (the Makefile's ``test``): the
first must be the compiled build, or CI would test pure Python twice without saying so.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
import rage_sdk
from rage_sdk.compiled import COMPILED_MODULES, is_compiled

from tests.conftest import HAS_C_COMPILER, IN_CI, require

PURE = os.environ.get("RAGE_PURE_PYTHON", "") not in ("", "0")

ORIGINS = f"""
import importlib, json
print(json.dumps([importlib.import_module(name).__file__ for name in {COMPILED_MODULES!r}]))
"""


def origins(pure: bool) -> list[str]:
    """The file each compiled module is loaded from in a fresh process, with ``RAGE_PURE_PYTHON`` set or not."""
    env = {name: value for name, value in os.environ.items() if name != "RAGE_PURE_PYTHON"}
    env |= {"RAGE_PURE_PYTHON": "1"} if pure else {}
    proc = subprocess.run([sys.executable, "-c", ORIGINS], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    files: list[str] = json.loads(proc.stdout)
    return files


def test_ci_runs_the_compiled_build_unless_told_to_run_pure_python() -> None:
    if PURE:
        assert not is_compiled()
        return
    if not IN_CI:
        pytest.skip("only CI must run the compiled build (an install without a C compiler is pure Python)")
    require(HAS_C_COMPILER, "a C compiler", "apt-get install gcc (CI tests the compiled build)")
    assert is_compiled(), "CI has a C compiler, so the SDK must run compiled: run `make install`"


def test_pure_python_is_forced_even_where_the_modules_are_compiled() -> None:
    pure = origins(pure=True)
    assert [Path(file).suffix for file in pure] == [".py"] * len(COMPILED_MODULES), pure
    installed = origins(pure=False)
    compiled = [file for file in installed if file.endswith(tuple(EXTENSION_SUFFIXES))]
    assert compiled in ([], installed), installed  # all of them or none
    if compiled:  # the .py file loaded is the one beside the extension module, in the package's folder
        # (mypyc can name a compiled module imported by another compiled one from a folder of the package's
        # name inside it, rage_sdk/rage_sdk/deal...so: its __file__ is not where it was loaded from)
        package = Path(rage_sdk.__file__).parent
        assert [Path(file) for file in pure] == [package / f"{name.rsplit('.', 1)[1]}.py" for name in COMPILED_MODULES]
        assert [Path(file).name.split(".")[0] for file in installed] == [
            name.rsplit(".", 1)[1] for name in COMPILED_MODULES
        ]
