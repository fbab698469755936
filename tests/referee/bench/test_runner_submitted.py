"""rage bench runner --submitted: submitted versions of the example bots in the sandbox, locally and on Ray
with 1 and 2 workers, each side every game, with the time a worker took to take the versions."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys

import pytest

from tests.conftest import require, require_command


@pytest.mark.slow
def test_bench_runner_submitted_measures_every_side_and_the_shipping() -> None:
    require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    command = [sys.executable, "-m", "rage_referee", "bench", "runner", "--submitted", "--games", "4", "--json"]
    done = subprocess.run([*command, "--concurrency", "2"], capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["submitted"] is True
    assert [side["workers"] for side in figures["sides"]] == [0, 1, 2]
    played = {side["games"] for side in figures["sides"]}
    assert len(played) == 1 and played.pop() >= 4, "every side plays the same league (whole duplicate sets)"
    local, *ray = figures["sides"]
    assert local["ship_s"] == 0 and all(side["ship_s"] > 0 for side in ray), "each Ray side took the versions"
    assert all(side["games_per_s"] > 0 for side in figures["sides"])
