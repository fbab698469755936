"""The list of compiled engine modules, the one answer to which build runs, and what a build needs at run time."""

from __future__ import annotations

import importlib
import random
import runpy
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from rage_sdk.compiled import COMPILED_MODULES, is_compiled
from rage_sdk.rules import Ruleset
from rage_sdk.sampling import WorldSampler
from rage_sdk.state import GameState
from rage_sdk.view import view_for

SDK = Path(__file__).resolve().parents[2] / "sdk"


def _is_extension(name: str) -> bool:
    return (importlib.import_module(name).__file__ or "").endswith(tuple(EXTENSION_SUFFIXES))


def test_the_engine_modules_are_all_compiled_or_all_pure_and_is_compiled_says_which() -> None:
    extensions = {name: _is_extension(name) for name in COMPILED_MODULES}
    assert len(set(extensions.values())) == 1, f"a build with only some modules compiled: {extensions}"
    assert is_compiled() is extensions["rage_sdk.state"]


def test_the_list_names_the_engine() -> None:
    engine = {"rage_sdk.cards", "rage_sdk.actions", "rage_sdk.deal", "rage_sdk.state", "rage_sdk.sampling"}
    assert engine <= set(COMPILED_MODULES)
    assert len(set(COMPILED_MODULES)) == len(COMPILED_MODULES)


class CountingState(GameState):
    """An interpreted subclass, as the referee's checks write one: its override is called by the engine."""

    def _reveal(self) -> int:
        self.reveals = getattr(self, "reveals", 0) + 1
        return super()._reveal()


class FirstHolderSampler(WorldSampler):
    """An interpreted subclass, as search bots write one, with an attribute of its own."""

    def deal_unseen(self, rng: random.Random) -> list[list[int]]:
        self.deals = getattr(self, "deals", 0) + 1
        return super().deal_unseen(rng)


def test_interpreted_code_subclasses_the_state_and_the_sampler_in_either_build() -> None:
    state = CountingState(Ruleset.of("amigo"), 4)
    state.deal_seeded(seed=3)  # the compiled deal calls the subclass's _reveal
    assert state.reveals == 1
    sampler = FirstHolderSampler(view_for(state, 0))
    world = sampler.sample(random.Random(1))  # the compiled sample() calls the subclass's deal_unseen
    assert sampler.deals >= 1
    assert world.hands[0] == state.hands[0]


def test_the_builds_run_without_mypy_extensions() -> None:
    """The SDK depends on neither mypy nor mypy_extensions: a compiled module must not import them."""
    code = (
        "import sys; sys.modules['mypy_extensions'] = None\n"  # any import of it fails
        "from rage_sdk.sampling import WorldSampler\n"
        "from rage_sdk.state import GameState\n"
        "class Mine(GameState): pass\n"
        "class Ours(WorldSampler): pass\n"
        "from rage_sdk.compiled import is_compiled; print(is_compiled())\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(is_compiled())


def test_the_build_removes_the_extension_modules_of_modules_left_out(tmp_path: Path) -> None:
    setup = runpy.run_path(str(SDK / "setup.py"), run_name="sdk_setup")  # its helpers, without building
    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "rage_sdk"
    package.mkdir()
    for name in ("cards", "state", "engine__mypyc"):
        (package / f"{name}{suffix}").touch()
    (package / "state.py").touch()
    stale = setup["stale_extensions"](tmp_path, {"rage_sdk.cards", "rage_sdk.engine__mypyc"})
    assert stale == [package / f"state{suffix}"]
    assert setup["stale_extensions"](tmp_path, set()) == sorted(
        package / f"{n}{suffix}" for n in ("cards", "engine__mypyc", "state")
    )
