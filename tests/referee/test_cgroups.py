"""Bots' cgroups: one per launch, ended whole, and none left behind by a referee killed before it removed them."""

from __future__ import annotations

import subprocess

import pytest
from rage_referee import cgroups
from rage_referee.cgroups import BotCgroup


@pytest.fixture(autouse=True)
def machine_gives_cgroups() -> None:
    if not cgroups.available():
        pytest.skip("this machine gives the referee no cgroup for a bot")


def test_the_cgroups_of_a_referee_gone_are_removed_when_the_next_is_made() -> None:
    pid = subprocess.Popen(["true"])
    pid.wait()
    made = BotCgroup.make()
    assert made is not None
    left = {controller: folder.parent / f"rage-bot-{pid.pid}-0" for controller, folder in made.folders.items()}
    made.remove()
    for folder in left.values():
        folder.mkdir()
    again = BotCgroup.make()
    assert again is not None
    again.remove()
    assert not any(folder.exists() for folder in left.values())


def test_a_cgroup_ends_every_process_in_it_whatever_session_it_made() -> None:
    made = BotCgroup.make(64 * 1024 * 1024)
    assert made is not None
    daemon = "setsid sh -c 'trap \"\" TERM; exec sleep 300' & exec sleep 300"
    leader = subprocess.Popen([*made.entry(), "sh", "-c", daemon], start_new_session=True)
    try:
        for _ in range(100):
            if len(made.pids()) == 2:
                break
            subprocess.run(["sleep", "0.05"], check=True)
        assert len(made.pids()) == 2
    finally:
        made.end()
        leader.wait(5)
    assert made.folders == {}
