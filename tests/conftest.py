"""Shared test settings: a test that needs a missing tool skips locally and fails in CI."""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Iterator

import pytest
import typer.main
import typer.testing

# The suite keeps compiled bytecode (in the __pycache__ folders git ignores) even where the
# environment says not to: every test worker would otherwise rewrite and compile each test module
# again, and each of the hundreds of bot, league and referee processes the tests start would
# compile the packages again before its first line (about a tenth of a second each).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

pytest_plugins = ("tests.helpers.backends",)
"""The ``database_url`` fixture: each store test on SQLite and on PostgreSQL (tests/helpers/backends.py)."""

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
HAS_C_COMPILER = (
    shutil.which(shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[0]) is not None
)
"""Whether the SDK's build finds the C compiler it compiles the engine with (``sdk/setup.py``)."""

# pytest-xdist hands its workers COLUMNS: a console made at import would keep that width for good, and
# the tests that give the CLI a width of their own (CliRunner's env) would not get it. Without it, a
# console measures itself as it prints, as in a run without workers.
os.environ.pop("COLUMNS", None)

# CliRunner.invoke builds the Click command tree of the app it is given, every call: the whole
# `rage` tree (every sub-app, every option's annotations evaluated) took about a tenth of a second,
# most of a short command's time and more than the whole check in the tests that invoke it hundreds
# of times. The tree is built from the app's declarations only, so each app's is built once.
typer.testing._get_command = functools.cache(typer.main.get_command)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Whole modules reordered: those starting a Ray (or a cluster) first, then those with a slow test, then the rest.

    pytest-xdist's worksteal hands each worker a contiguous share of this order and steals from the end
    of a share, so the head of the first share runs on one worker, unbroken: a module-scoped Ray is
    started once (a module split across workers, or broken by another module's tests, started one
    each time), and the longest tests start first instead of being stolen last and running alone.
    """

    def rank(item: pytest.Item) -> int:
        if {"ray_address", "ray_cluster_nodes"}.intersection(getattr(item, "fixturenames", ())):
            return 0
        return 1 if item.get_closest_marker("slow") else 2

    ranks: dict[str, int] = {}
    for item in items:
        module = item.nodeid.partition("::")[0]
        ranks[module] = min(ranks.get(module, 2), rank(item))
    items.sort(key=lambda item: ranks[item.nodeid.partition("::")[0]])


def require(available: bool, what: str, how: str) -> None:
    """Skip (locally) or fail (in CI, where nothing may be skipped) when ``what`` is missing.

    ``how`` says how to make it available, for the skip reason.
    """
    if available:
        return
    message = f"{what} is not available; {how}"
    if IN_CI:
        pytest.fail(f"CI must run every test: {message}")
    pytest.skip(message)


def require_command(name: str, how: str) -> str:
    """The path of command ``name``, or skip/fail as :func:`require` does."""
    path = shutil.which(name)
    require(path is not None, f"the command {name!r}", how)
    assert path is not None
    return path


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A single-node Ray for one test module, with room for two workers; its address for other processes.

    For modules that have checked Ray is installed (:func:`require`); Ray's local mode is gone, so
    each module that needs Ray starts a real one and shuts it down after its last test. Its workers
    keep the submitted versions they are shipped in a cache of the module's own (RAGE_VERSIONS_CACHE).
    """
    import ray

    cache = str(tmp_path_factory.mktemp("versions-cache"))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("RAGE_VERSIONS_CACHE", cache)  # the workers take the environment Ray starts with
        ray.init(num_cpus=2, include_dashboard=False, object_store_memory=100 * 2**20, log_to_driver=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()
