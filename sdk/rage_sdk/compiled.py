"""Which engine modules are compiled with mypyc at install, and whether this process runs them compiled.

``sdk/setup.py`` reads :data:`COMPILED_MODULES` (without importing the SDK) and compiles those modules
when a C compiler is there; each then has an extension module beside its ``.py`` file, which Python
imports in its place. Without a compiler (or with ``RAGE_PURE_PYTHON=1`` at install) the same files run
as pure Python, and ``RAGE_PURE_PYTHON=1`` at run time runs the ``.py`` files of a compiled install
(``rage_sdk/__init__.py``); nothing else differs between the two builds.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Final, TypeVar

if TYPE_CHECKING:  # mypyc reads the decorator by this name; the SDK does not depend on mypy_extensions
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    _T = TypeVar("_T")

    def mypyc_attr(*flags: str, **options: object) -> Callable[[_T], _T]:
        """``mypy_extensions.mypyc_attr`` as it runs: it leaves the class as it is.

        Compiled, mypyc reads the options from the source and drops the decorator (a compiled module
        never calls it); run as Python, this one is called, so no build needs ``mypy_extensions``.
        """
        return lambda cls: cls


COMPILED_MODULES: Final = (
    "rage_sdk.cards",
    "rage_sdk.actions",
    "rage_sdk.engine_events",
    "rage_sdk.deal",
    "rage_sdk.state",
    "rage_sdk.simulate",
    "rage_sdk.rollout",
    "rage_sdk.sampling",
)
"""The modules mypyc compiles, in import order. ``rage_sdk.rules`` is not among them: its
:class:`~rage_sdk.rules.Ruleset` is a pydantic model, which mypyc cannot compile, and the engine
reads its options once a game. :class:`~rage_sdk.state.GameState` and :class:`~rage_sdk.sampling.WorldSampler`
are compiled with ``@mypyc_attr(allow_interpreted_subclasses=True)``: bots and the referee's checks subclass
them, and a compiled class refuses interpreted subclasses without it."""


def is_compiled() -> bool:
    """Whether every module of :data:`COMPILED_MODULES` runs compiled in this process."""
    for name in COMPILED_MODULES:
        spec = importlib.import_module(name).__spec__
        if spec is None or not (spec.origin or "").endswith(tuple(EXTENSION_SUFFIXES)):
            return False
    return True
