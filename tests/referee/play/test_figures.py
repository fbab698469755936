"""A finished game's figures read from its record (``figures_of``) are the engine's own: totals, places
(the ``most_hits`` tie-break too), hits and rounds, and the faults the record lists. A refereed game's
record and figures are built once, as it ends: the figures it hands over are those its record gives."""

from __future__ import annotations

import asyncio
import pickle
import random
from pathlib import Path

import pytest
from rage_referee.faults import Fault, FaultKind
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals
from rage_referee.play.finished import FinishedGame, figures_of
from rage_referee.seats import BotSpec
from rage_sdk import CHANCE, GameState, Ruleset, view_for
from rage_sdk.record import record_json
from rage_sdk.rules import PRESETS

from tests.helpers.game_records import played_record


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("players", [2, 3])
def test_figures_of_a_record_are_the_engines(preset: str, players: int) -> None:
    for seed in range(6):
        rng = random.Random(seed)
        state = GameState(Ruleset.of(preset), players)
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.deal_seeded(seed=rng.randrange(1 << 30))
            else:
                state.apply(rng.choice(view_for(state, state.current_player()).legal_actions))
        figures = figures_of(record_json(state, [f"bot-{seat}" for seat in range(players)]))
        assert (figures.totals, figures.places, figures.hits) == tuple(state.outcome())
        assert figures.rounds == len(state.results) and figures.faults == ()


def test_a_finished_game_reads_its_figures_and_faults_from_its_record() -> None:
    record = played_record(("a", "b", "c"), seed=3)
    fault = Fault(2, FaultKind.ILLEGAL, 4, 1, "played r3 holding g5", "g5", 17)
    record["faults"] = [fault.to_json()]
    game = FinishedGame.of_record(7, 2, 99, record, decisions=120)
    assert (game.index, game.set_id, game.seed, game.decisions) == (7, 2, 99, 120)
    assert game.figures.seats == ("a", "b", "c") and game.figures.faults == (fault,) and game.figures.faults_of(2) == 1
    assert (game.figures.totals, game.figures.rounds) == (tuple(record["result"]["totals"]), len(record["rounds"]))


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"result": None}, "TypeError"),
        ({"rounds": []}, "0 rounds, 10 scored"),
        ({"players": ["a"]}, "2 totals of 1 seats"),
    ],
)
def test_a_record_of_no_finished_game_has_no_figures(change: dict[str, object], fragment: str) -> None:
    record = {**played_record(("a", "b"), seed=1), **change}
    with pytest.raises(ValueError, match="not the record of a finished game") as refused:
        figures_of(record)
    assert fragment in str(refused.value)


def test_a_stored_game_holds_no_dict_of_its_own_and_pickles() -> None:
    """A league's games are read from the index all at once (ratings, standings, resume): slots keep each game at
    about 820 bytes held (916 with an attribute dict on the game and on its figures), and a game still crosses
    from a Ray worker to its driver."""
    game = FinishedGame.of_record(3, 1, 7, played_record(("a", "b", "c")))
    assert not hasattr(game, "__dict__") and not hasattr(game.figures, "__dict__")
    assert pickle.loads(pickle.dumps(game)) == game


def test_a_refereed_games_figures_are_those_its_record_gives(tmp_path: Path) -> None:
    """Taken from the engine as the game ends, with its faults, not parsed back out of the record; the record
    keeps its keys in the order the format lists them."""
    root = Path(__file__).resolve().parents[3]
    specs = [
        BotSpec.of("blunder", f"{root}/tests/bots/blunder.py:BlunderBot"),
        BotSpec.of("random", f"{root}/examples/random_bot.py:RandomBot"),
    ]
    rules = Ruleset.of("amigo", rounds=[3, 2])
    result = asyncio.run(run_match(specs, rules, 2, Deals.public(5), log_dir=tmp_path))
    for game in result.games:
        assert game.figures == figures_of(game.record)
        assert game.figures.faults_of(game.figures.seats.index("blunder")) > 0
        keys = ["format", "ruleset", "players", "first_round", "rounds", "result", "faults", "meta"]
        assert list(game.record) == keys
        assert all(list(play)[-1] == "ms" for round_ in game.record["rounds"] for play in round_["plays"])
