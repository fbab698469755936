"""rage bench runner: the local loop and Ray with 1 and 2 workers, each side every game, Ray's cost per game."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conftest import require


@pytest.mark.slow
def test_bench_runner_measures_every_side() -> None:
    require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")
    command = [sys.executable, "-m", "rage_referee", "bench", "runner", "--games", "8", "--concurrency", "2", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert [side["workers"] for side in figures["sides"]] == [0, 1, 2]
    played = {side["games"] for side in figures["sides"]}
    assert len(played) == 1 and played.pop() >= 8, "every side plays the same league (whole duplicate sets)"
    for side in figures["sides"]:
        assert side["games_per_s"] > 0 and side["decisions"] > 0
    assert figures["round_trip_ms"] > 0 and figures["ray_start_s"] > 0
    assert isinstance(figures["overhead_ms_per_game"], float)
