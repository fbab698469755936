"""The list of compiled engine modules, and the one answer to which build runs."""

from __future__ import annotations

import importlib
from importlib.machinery import EXTENSION_SUFFIXES

from rage_sdk.compiled import COMPILED_MODULES, is_compiled


def _is_extension(name: str) -> bool:
    return (importlib.import_module(name).__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def test_the_engine_modules_are_all_compiled_or_all_pure_and_is_compiled_says_which() -> None:
    extensions = {name: _is_extension(name) for name in COMPILED_MODULES}
    assert len(set(extensions.values())) == 1, f"a build with only some modules compiled: {extensions}"
    assert is_compiled() is extensions["rage_sdk.simulate"]


def test_the_list_names_the_engine() -> None:
    assert {"rage_sdk.cards", "rage_sdk.actions", "rage_sdk.deal", "rage_sdk.simulate"} <= set(COMPILED_MODULES)
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)
