"""Which engine modules are compiled with mypyc at install, and whether this process runs them compiled.

``sdk/setup.py`` reads :data:`COMPILED_MODULES` (without importing the SDK) and compiles those modules
when a C compiler is there; each then has an extension module beside its ``.py`` file, which Python
imports in its place. ``RAGE_PURE_PYTHON=1`` runs the ``.py`` files instead (``rage_sdk/__init__.py``).
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

COMPILED_MODULES: Final = ("rage_sdk.cards", "rage_sdk.actions", "rage_sdk.deal")
"""The dotted names of the modules compiled at install."""


def is_compiled() -> bool:
    """Whether every module of :data:`COMPILED_MODULES` runs compiled in this process."""
    for name in COMPILED_MODULES:
        spec = importlib.import_module(name).__spec__
        if spec is None or not (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            return False
    return True
