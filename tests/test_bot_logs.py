"""A launched bot's log: a section per run (the referee's launch line, the SDK's greeting) and a header per game."""

from __future__ import annotations

import asyncio
import re
import shlex
from pathlib import Path

from rage_referee.deals import Deals
from rage_referee.match import run_match
from rage_referee.seats import BotSpec
from rage_sdk.examples import example_bot
from rage_sdk.rules import Ruleset


def test_each_run_and_each_game_opens_a_section_of_the_bots_log(tmp_path: Path) -> None:
    specs = [
        BotSpec.of("served", f"python {shlex.quote(str(example_bot('random_bot')))}"),
        BotSpec.of("local", f"{example_bot('greedy_bot')}:GreedyBot"),
    ]
    ruleset = Ruleset.of("amigo", rounds=[2, 1])
    for seed in (0, 10):
        asyncio.run(run_match(specs, ruleset, games=2, deals=Deals.public(seed), log_dir=tmp_path))
    log = (tmp_path / "served.log").read_text()
    launches = r"^=== .* UTC: the referee \(pid \d+\) launches .*random_bot\.py --port \d+$"
    assert len(re.findall(launches, log, re.M)) == 2
    assert len(re.findall(r"^=== .* UTC: 'rage-arena referee' connected from ", log, re.M)) == 2
    headers = re.findall(r"^--- game (\d) \(record game-0000(\d)\.json, id \d+\), seat (\d) of 2, amigo ", log, re.M)
    assert sorted(headers) == sorted([("0", "0", "0"), ("1", "1", "1")] * 2)
