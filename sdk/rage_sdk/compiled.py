"""The engine modules compiled with mypyc when a C compiler is there, and which build is running.

The same files run as pure Python without a compiler (or with ``RAGE_PURE_PYTHON=1`` at install);
nothing else differs between the two builds. The build reads :data:`COMPILED_MODULES`.
"""

from __future__ import annotations

from typing import Final

COMPILED_MODULES: Final = (
    "rage_sdk.cards",
    "rage_sdk.actions",
    "rage_sdk.engine_events",
    "rage_sdk.state",
    "rage_sdk.deal",
    "rage_sdk.simulate",
    "rage_sdk.sampling",
    "rage_sdk.rollout",
)
"""The modules mypyc compiles, in import order. ``rage_sdk.rules`` is not among them: its
:class:`~rage_sdk.rules.Ruleset` is a pydantic model, which mypyc cannot compile, and the engine
reads its options once a game."""


def is_compiled() -> bool:
    """Whether the engine running is the compiled one (its state module is an extension module)."""
    from . import state

    return not (state.__file__ or "").endswith(".py")
