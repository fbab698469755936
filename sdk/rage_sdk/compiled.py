"""Which engine modules are compiled with mypyc at install, and whether this process runs them compiled.

``sdk/setup.py`` reads :data:`COMPILED_MODULES` (without importing the SDK) and compiles those modules
when a C compiler is there; each then has an extension module beside its ``.py`` file, which Python
imports in its place. Without a compiler (or with ``RAGE_PURE_PYTHON=1`` at install) the same files run
as pure Python, and ``RAGE_PURE_PYTHON=1`` at run time runs the ``.py`` files of a compiled install
(``rage_sdk/__init__.py``); nothing else differs between the two builds.
"""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from typing import Final

COMPILED_MODULES: Final = (
    "rage_sdk.cards",
    "rage_sdk.actions",
    "rage_sdk.engine_events",
    "rage_sdk.deal",
    "rage_sdk.simulate",
    "rage_sdk.rollout",
)
"""The modules mypyc compiles, in import order. ``rage_sdk.rules`` is not among them: its
:class:`~rage_sdk.rules.Ruleset` is a pydantic model, which mypyc cannot compile, and the engine
reads its options once a game. Nor are ``rage_sdk.state`` and ``rage_sdk.sampling``: a compiled class cannot be
subclassed by interpreted code, and bots and the referee's checks subclass
:class:`~rage_sdk.state.GameState` and :class:`~rage_sdk.sampling.WorldSampler`."""


def is_compiled() -> bool:
    """Whether every module of :data:`COMPILED_MODULES` runs compiled in this process."""
    for name in COMPILED_MODULES:
        spec = importlib.import_module(name).__spec__
        if spec is None or not (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            return False
    return True
