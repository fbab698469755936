"""Bots and the referee run gRPC on the engine measured fastest here, unless the user chose one."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from rage_sdk.grpc_engine import EXPERIMENTS

WATCH = """
import os, sys
seen = []
class Watch:  # notes GRPC_EXPERIMENTS at the moment gRPC is first imported, when gRPC reads it
    def find_spec(self, name, path=None, target=None):
        if name == "grpc" and not seen:
            seen.append(os.environ.get("GRPC_EXPERIMENTS", "<unset>"))
sys.meta_path.insert(0, Watch())
import {module}
print(seen[0])
"""


def python_output(code: str, **env: str) -> str:
    """What ``code`` prints in a fresh interpreter whose environment has ``env`` and no GRPC_EXPERIMENTS of ours."""
    environment = {k: v for k, v in os.environ.items() if k != "GRPC_EXPERIMENTS"} | env
    done = subprocess.run([sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def experiments_seen_by_grpc(module: str, **env: str) -> str:
    """GRPC_EXPERIMENTS as gRPC finds it on its first import, in a fresh process that imports ``module``."""
    return python_output(WATCH.format(module=module), **env)


@pytest.mark.parametrize("module", ["rage_sdk.server", "rage_referee.seats.remote", "rage_referee.hosted.server"])
def test_the_measured_engine_is_chosen_before_grpc_starts(module: str) -> None:
    assert experiments_seen_by_grpc(module) == EXPERIMENTS


def test_a_users_own_choice_is_kept() -> None:
    chosen = "event_engine_client"
    assert experiments_seen_by_grpc("rage_referee.seats.remote", GRPC_EXPERIMENTS=chosen) == chosen


def test_launched_bots_get_the_users_environment_not_the_choice_made_here() -> None:
    code = (
        "import rage_referee.seats, os, sys; from rage_sdk.grpc_engine import environment_for_child;"
        "print(os.environ.get('GRPC_EXPERIMENTS'), environment_for_child().get('GRPC_EXPERIMENTS'))"
    )
    assert python_output(code).split() == [EXPERIMENTS, "None"]
    chosen = "event_engine_client"
    assert python_output(code, GRPC_EXPERIMENTS=chosen).split() == [chosen, chosen]
