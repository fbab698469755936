"""``rage match --duplicate``: whole duplicate sets, and the pair's score difference with its interval."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import defaultdict
from pathlib import Path

from rage_referee.cli import app
from rage_referee.league.seatings import seatings
from rage_referee.matches.match import duplicate_specs, run_match
from rage_referee.play.deals import Deals
from rage_referee.play.spec import TimeControl
from rage_referee.seats import BotSpec
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BOTS = [
    f"heuristic={EXAMPLES / 'heuristic_bot.py'}:HeuristicBot",
    f"random={EXAMPLES / 'random_bot.py'}:RandomBot",
]
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"
SHORT = '{"preset": "amigo", "rounds": [4, 3, 2]}'


def test_duplicate_specs_are_whole_sets_of_every_seating() -> None:
    specs = duplicate_specs(["a", "b", "c"], Ruleset.of("amigo"), 7, Deals.public(4), TimeControl())
    assert [spec.game_id for spec in specs] == list(range(12))
    sets: dict[int, list[tuple[str, ...]]] = defaultdict(list)
    seeds: dict[int, set[int]] = defaultdict(set)
    for spec in specs:
        sets[spec.game_id // 6].append(spec.seats)
        seeds[spec.game_id // 6].add(spec.seed)
    assert len(sets) == 2 and all(len(seed) == 1 for seed in seeds.values()) and seeds[0] != seeds[1]
    order = ("a", "b", "c")
    for seatings_of_set in sets.values():
        assert {tuple(order.index(name) for name in seats) for seats in seatings_of_set} == set(seatings(3))


def test_match_duplicate_prints_the_pairs_interval() -> None:
    args = ["match", *(arg for bot in BOTS for arg in ("--bot", bot)), "--ruleset", SHORT, "--games", "5"]
    result = CliRunner().invoke(app, [*args, "--duplicate"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "6 games" in text  # 5 rounded up to 3 sets of 2, and said so (a league says so; the match did not)
    assert "6 games, not the 5 asked: whole duplicate sets of 2" in result.stderr
    assert "points a game on the same deals at this table of 2 (3 sets: too few for an interval yet), LOS" in text
    assert "heuristic over random: " in text or "random over heuristic: " in text
    figures = json.loads(CliRunner().invoke(app, [*args, "--duplicate", "--json"]).stdout)
    assert figures["games"] == 6 and len(figures["pairs"]) == 1
    pair = figures["pairs"][0]
    assert pair["sets"] == 3 and pair["low"] is pair["high"] is None  # 3 sets bound no confidence sequence yet
    assert 0 <= pair["los"] <= 0.9375 and pair["p_corrected"] == pair["p"]  # one pair: nothing to correct for
    plain = CliRunner().invoke(app, args)
    assert plain.exit_code == 0 and "--duplicate for the paired score difference" in " ".join(plain.stdout.split())


def test_a_pair_that_never_differs_is_given_no_interval_of_no_width() -> None:
    """Two copies of one bot differ by 0 in every set: the line said "+0.00 ±0.00 (95% interval...)", an interval
    of no width that no finite sample shows."""
    twins = [f"one={EXAMPLES / 'heuristic_bot.py'}:HeuristicBot", f"two={EXAMPLES / 'heuristic_bot.py'}:HeuristicBot"]
    args = ["match", *(arg for bot in twins for arg in ("--bot", bot)), "--ruleset", SHORT, "--games", "8"]
    result = CliRunner().invoke(app, [*args, "--duplicate", "--seed", "3"])
    assert result.exit_code == 0, result.output
    text = " ".join(result.stdout.split())
    assert "+0.00 points a game on the same deals at this table of 2 (4 sets: too few for an interval yet)" in text
    assert "±0.00" not in text


PEEKER = """
from pathlib import Path

from rage_sdk import Bot

SEEN: list[tuple[int, list[str]]] = []


class Peeker(Bot):
    def on_game_start(self, game):
        SEEN.append((game.index, sorted(path.name for path in Path({records!r}).glob("game-*.json"))))

    def bid(self, view):
        return view.legal_bids[0]

    def play(self, view):
        return view.legal_plays[0]
"""


def test_a_bot_reading_the_records_folder_finds_no_record_of_a_set_still_in_play(tmp_path: Path) -> None:
    """A set's records are written once the set is complete: each shows the hands its other games deal."""
    records = tmp_path / "records"
    file = tmp_path / "peeker.py"
    file.write_text(PEEKER.format(records=str(records)))
    specs = [BotSpec.of("peeker", f"{file}:Peeker"), BotSpec.of("greedy", GREEDY)]
    ruleset = Ruleset.of("amigo", rounds=[2])
    asyncio.run(run_match(specs, ruleset, 4, Deals.public(3), records=records, log_dir=tmp_path, duplicate=True))
    seen = sys.modules[f"rage_bot_{file.stem}"].SEEN
    assert [index for index, _ in seen] == [0, 1, 2, 3]
    for index, files in seen:
        complete = [f"game-{game:05d}.json" for game in range(index - index % 2)]  # sets of 2 before this one
        assert files == complete, (index, files)
    assert sorted(path.name for path in records.glob("game-*.json")) == [f"game-0000{i}.json" for i in range(4)]
