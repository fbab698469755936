"""The SDK's build: the modules of ``rage_sdk.compiled.COMPILED_MODULES`` compiled with mypyc when it can be.

Without a C compiler or Python's headers, or with ``RAGE_PURE_PYTHON=1`` set, the same modules install
as pure Python, unchanged. Everything else about the distribution is in ``pyproject.toml``.
"""

from __future__ import annotations

import ast
import os
import shlex
import shutil
import sys
import sysconfig
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).resolve().parent
GROUP = "rage_sdk.engine"
"""The compiled modules' shared library, ``rage_sdk/engine__mypyc``: inside the package, so an editable
install imports it from the source tree as it does the modules."""


def compiled_modules() -> tuple[str, ...]:
    """``COMPILED_MODULES`` as ``rage_sdk/compiled.py`` assigns it (the SDK's dependencies are not here yet)."""
    tree = ast.parse((HERE / "rage_sdk" / "compiled.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "COMPILED_MODULES" for target in targets):
                return tuple(ast.literal_eval(node.value))
    raise SystemExit("rage_sdk/compiled.py assigns no COMPILED_MODULES")


def why_pure() -> str | None:
    """Why the modules install as pure Python, or none when they are compiled."""
    if os.environ.get("RAGE_PURE_PYTHON", "") not in ("", "0"):
        return "RAGE_PURE_PYTHON is set"
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[:1]
    if not compiler or shutil.which(compiler[0]) is None:
        return f"no C compiler ({' '.join(compiler) or 'CC'} is not on PATH)"
    if not Path(sysconfig.get_paths()["include"], "Python.h").is_file():
        return "no Python.h (install Python's development headers)"
    return None


def stale_extensions(root: Path, keep: set[str]) -> list[Path]:
    """The extension modules under ``root/rage_sdk`` of modules not in ``keep``: an earlier build's, left
    in place, which Python would import instead of the ``.py`` beside them (and whose shared library no
    longer holds them)."""
    stale = []
    for built in sorted((root / "rage_sdk").rglob("*")):
        suffix = next((suffix for suffix in EXTENSION_SUFFIXES if built.name.endswith(suffix)), None)
        if suffix is not None:
            name = ".".join(built.relative_to(root).parts)[: -len(suffix)]
            if name not in keep:
                stale.append(built)
    return stale


def installs_in_place(argv: list[str]) -> bool:
    """Whether setuptools runs this build for an editable install (``pip install -e``): only then does Python
    import the package from the source tree, extension modules and all. A wheel's build leaves the tree as it is."""
    return "editable_wheel" in argv or "develop" in argv


def extensions() -> list[object]:
    reason = why_pure()
    keep = set() if reason is not None else {*compiled_modules(), f"{GROUP}__mypyc"}
    if installs_in_place(sys.argv):
        for built in stale_extensions(HERE, keep):
            built.unlink()
    if reason is not None:
        print(f"rage-sdk: the engine installs as pure Python: {reason}", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypyc names the modules by their paths from here
    paths = [name.replace(".", "/") + ".py" for name in compiled_modules()]
    return list(mypycify(paths, group_name=GROUP, opt_level="3"))


if __name__ == "__main__":  # as setuptools runs it (a test imports the helpers above under another name)
    setup(ext_modules=extensions())
