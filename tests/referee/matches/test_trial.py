"""``rage test``: its duplicate sets, its verdicts and exit codes, resuming, and bad input."""

from __future__ import annotations

import json
import re
import sqlite3
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from rage_referee.cli import app
from rage_referee.cli.trial import closing_line, figures_text
from rage_referee.league.store import Store, sqlite_url
from rage_referee.matches.sprt import Verdict, points_for_elo
from rage_referee.matches.trial import (
    MIN_GAME_DEVIATION,
    SetFigures,
    TrialConfig,
    TrialStatus,
    first_status,
    swapped_plan,
)
from rage_referee.play.deals import Deals
from rage_referee.seats import BotSpec
from rage_sdk.deal import key_commitment
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
HEURISTIC = f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot"
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"
SHORT = '{"preset": "amigo", "rounds": [4, 3, 2]}'


def rage_test(tmp_path: Path, new: str, base: str, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(
        app,
        [
            "test",
            new,
            base,
            "--field",
            f"greedy={GREEDY}",
            "--ruleset",
            SHORT,
            "--db",
            str(tmp_path / "t.sqlite"),
            *args,
        ],
    )
    return result.exit_code, result.stdout, result.stderr


def config(players: int, field: int) -> TrialConfig:
    specs = tuple(BotSpec.of(f"field{k}", GREEDY) for k in range(field))
    new, base = BotSpec.of("new", HEURISTIC), BotSpec.of("base", RANDOM)
    return TrialConfig(new, base, specs, players, Ruleset.of("amigo"), seed=0)


@pytest.mark.parametrize(("players", "size"), [(2, 2), (3, 6), (4, 24), (5, 40)])
def test_a_set_seats_new_and_base_on_the_same_hands_against_the_same_field(players: int, size: int) -> None:
    trial = config(players, players - 2)
    games = trial.games_of(3)
    assert len(games) == trial.set_size == size == len(swapped_plan(players))
    assert {game.set_id for game in games} == {3} and len({game.seed for game in games}) == 1
    assert [game.index for game in games] == list(range(3 * size, 4 * size))
    seatings = {game.seats for game in games}
    for seats in seatings:
        # the twin: NEW and BASE swapped, every field bot in its seat
        assert tuple({"new": "base", "base": "new"}.get(name, name) for name in seats) in seatings
    assert Counter(game.seats.index("new") for game in games) == Counter(game.seats.index("base") for game in games)


def test_the_field_takes_its_combinations_in_turn() -> None:
    trial = config(3, 2)
    assert [trial.table(k) for k in range(3)] == [
        ("new", "base", "field0"),
        ("new", "base", "field1"),
        ("new", "base", "field0"),
    ]


def test_a_stronger_bot_is_found_stronger(tmp_path: Path) -> None:
    code, out, _ = rage_test(tmp_path, f"heuristic={HEURISTIC}", f"random={RANDOM}", "--points", "3")
    assert code == 0, out
    assert out.startswith(
        "H1 accepted: evidence that heuristic is stronger than random (the interval is above 0; H1 was at least "
        "3 points a game at this table size and field (3 players, field greedy)): difference +"
    )
    assert "(90% at any stopping time)" in out and "Elo" in out and "LOS" in out


def test_a_weaker_bot_is_found_no_stronger_and_json_tells_it(tmp_path: Path) -> None:
    code, out, _ = rage_test(tmp_path, f"random={RANDOM}", f"heuristic={HEURISTIC}", "--json")
    assert code == 1, out
    figures = json.loads(out)
    assert figures["verdict"] == "H0" and figures["new"] == "random" and figures["games"] % 6 == 0
    assert figures["difference"] < 0 and figures["high"] < figures["margin_points"]
    assert figures["level"] == pytest.approx(0.9)


def stored_seeds(tmp_path: Path, name: str = "heuristic-vs-random") -> dict[int, int]:
    """Each stored game's deal seed, by duplicate set."""
    store = Store(sqlite_url(tmp_path / "t.sqlite"), create=False)
    try:
        return {game.set_id: game.seed for game in store.games(store.league(name))}
    finally:
        store.close()


def test_undecided_at_max_games_then_resumed_to_a_verdict_on_the_same_secret_deals(tmp_path: Path) -> None:
    args = (f"heuristic={HEURISTIC}", f"random={RANDOM}", "--points", "3")
    code, out, err = rage_test(tmp_path, *args, "--max-games", "12")
    assert code == 2 and out.startswith("undecided after 12 games (--max-games 12): "), out
    # deals are secret by default: the commitment is shown, the key kept while the test can go on
    commitment = re.search(r"deals: secret, commitment ([0-9a-f]{64})", err)
    assert commitment, err
    assert "deal key kept secret" in out and not re.search(r"[0-9a-f]{64}", out), out
    store = Store(sqlite_url(tmp_path / "t.sqlite"), create=False)
    first = {game.index: game.record for game in store.games(store.league("heuristic-vs-random"))}
    assert sorted(first) == list(range(12))
    code, out, err = rage_test(tmp_path, *args, "--json")
    figures = json.loads(out)
    assert code == 0 and figures["verdict"] == "H1" and "12 games stored already" in err, err
    games = {game.index: game.record for game in store.games(store.league("heuristic-vs-random"))}
    assert all(games[index] == record for index, record in first.items())
    # decided, the key is revealed: the one committed to, every set dealt from it
    key = bytes.fromhex(figures["deal_key"])
    assert key_commitment(key) == figures["deal_commitment"] == commitment[1]
    seeds = stored_seeds(tmp_path)
    assert len(seeds) >= figures["sets"]  # sets are played a batch at a time
    assert seeds == {set_id: Deals(key).seed_for(set_id) for set_id in seeds}
    assert all(seed != Deals.public(0).seed_for(set_id) for set_id, seed in seeds.items())
    # decided: running again plays nothing and says the same
    code, out, _ = rage_test(tmp_path, *args)
    assert (
        code == 0
        and out.startswith("H1 accepted")
        and f"deal key (revealed now the test is decided): {key.hex()}" in out
    )
    code, again, _ = rage_test(tmp_path, *args)
    assert code == 0 and again == out
    assert len(store.games(store.league("heuristic-vs-random"))) == len(games)


def test_a_seed_deals_public_repeatable_games(tmp_path: Path) -> None:
    args = (f"heuristic={HEURISTIC}", f"random={RANDOM}", "--points", "3", "--max-games", "12", "--seed", "7")
    runs = []
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        code, out, err = rage_test(tmp_path / folder, *args, "--json")
        assert code == 2 and "deals: public (seed 7)" in err
        figures = json.loads(out)
        assert figures["seed"] == 7 and "deal_key" not in figures and "deal_commitment" not in figures
        runs.append(stored_seeds(tmp_path / folder))
    assert runs[0] == runs[1] == {set_id: Deals.public(7).seed_for(set_id) for set_id in range(2)}


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--players", "4"], "--field: 4 players need 2 field bots, not 1"),
        (["--elo1", "5", "--points", "2"], "--elo1, --points"),
        (["--points", "-1"], "above 0"),
        (["--alpha", "0.7"], "alpha"),
        (["--ruleset", "chess"], "--ruleset"),
    ],
)
def test_bad_input_is_one_clear_line(tmp_path: Path, args: list[str], fragment: str) -> None:
    code, out, err = rage_test(tmp_path, f"heuristic={HEURISTIC}", f"random={RANDOM}", *args)
    assert code == 2 and fragment in err and "Traceback" not in err + out, err
    assert len(err.strip().splitlines()) == 1


def test_bad_bots_are_one_clear_line(tmp_path: Path) -> None:
    code, _, err = rage_test(tmp_path, f"same={HEURISTIC}", f"same={RANDOM}")
    assert code == 2 and "bots: names must differ (same is given twice)" in err
    code, _, err = rage_test(tmp_path, HEURISTIC, f"random={RANDOM}")
    assert code == 2 and err.startswith("NEW: ") and "expected NAME=COMMAND" in err


def test_other_settings_under_the_same_name_are_refused(tmp_path: Path) -> None:
    args = (f"heuristic={HEURISTIC}", f"random={RANDOM}")
    assert rage_test(tmp_path, *args, "--max-games", "6")[0] == 2
    code, _, err = rage_test(tmp_path, *args, "--max-games", "6", "--seed", "3")
    assert code == 2 and "other settings" in err and "--name" in err


def test_a_bot_that_cannot_start_ends_the_test_cleanly(tmp_path: Path) -> None:
    code, out, err = rage_test(tmp_path, f"ghost={tmp_path / 'nowhere.py'}:Ghost", f"random={RANDOM}")
    assert code == 3 and "cannot run the test" in err and "nowhere.py" in err and "Traceback" not in out + err


@pytest.mark.parametrize(
    ("margin", "why"),
    [
        (["--elo1", "nan"], "--elo1: the margin of H1 must be above 0, not nan"),
        (["--points", "inf"], "--points: the margin of H1 must be above 0, not inf"),
        (["--points", "-2"], "--points: the margin of H1 must be above 0, not -2.0"),
        (["--elo1", "1e308"], "--elo1: the margin of H1 must be at most 1000 Elo, not 1e+308"),
        (["--alpha", "0.7"], "--alpha: a chance between 0 and 0.5 (both excluded), not 0.7"),
        (["--beta", "0"], "--beta: a chance between 0 and 0.5 (both excluded), not 0.0"),
    ],
)
def test_a_margin_or_error_rate_out_of_range_is_refused_naming_its_option(
    tmp_path: Path, margin: list[str], why: str
) -> None:
    bots = ["a=x.py:A", "b=y.py:B", "--field", "c=z.py:C"]
    result = CliRunner().invoke(app, ["test", *bots, *margin, "--db", str(tmp_path / "t.sqlite")])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == why


def test_the_games_stored_past_the_verdict_are_told_apart_from_those_it_counted(tmp_path: Path) -> None:
    """Four sets are played at a time: the verdict comes after 5 sets (30 games), 8 are stored. The verdict
    said 'after 30 games' and, run again, '30 games stored already ...; going on from there' (48 were, and the
    test was over)."""
    args = (f"heuristic={HEURISTIC}", f"random={RANDOM}", "--points", "3", "--seed", "5", "--concurrency", "24")
    code, out, _ = rage_test(tmp_path, *args)
    assert code == 0 and "after 30 games (48 stored: those past the verdict's set are not counted)" in out, out
    assert len(stored_seeds(tmp_path)) == 8
    code, out, err = rage_test(tmp_path, *args, "--json")
    assert code == 0 and (json.loads(out)["games"], json.loads(out)["stored"]) == (30, 48), out
    assert (
        err.splitlines()[-1]
        == f"48 games stored already in {tmp_path / 't.sqlite'}; the test was decided after 30 of them"
    )
    code, out, err = rage_test(tmp_path, *args, "--max-games", "12")
    assert code == 2 and "after 12 games (48 stored: the test counts whole sets, in order, up to --max-games)" in out
    assert err.splitlines()[-1].endswith("t.sqlite (12 of them counted: whole sets, in order): --max-games 12 reached")


def test_an_elo_margin_with_every_game_alike_is_decided() -> None:
    """NEW and BASE scored alike in every game: one game's deviation is 0, and the Elo margin was 0 points, so the
    test never decided. The deviation is taken as a point at least: the margin stays above 0, and H0 comes."""
    alike = config(3, 1)
    sets = 200
    status = first_status(alike, SetFigures([0.0] * sets, [0.0] * sets * alike.set_size, sets * alike.set_size))
    assert status.sigma == 0 and status.margin == points_for_elo(25, MIN_GAME_DEVIATION) > 0
    assert status.verdict is Verdict.H0 and status.sets < sets


def verdict_status(verdict: Verdict, difference: float, low: float, high: float) -> TrialStatus:
    return TrialStatus(10, 60, difference, low, high, 0.9, 30.0, 2.7, 0.9, verdict)


def test_the_verdicts_say_what_was_shown_and_whose_table_the_margin_is() -> None:
    """H1 said "new is stronger than base by 25 Elo or more", which the test does not show: it comes half the
    time with NEW stronger by half the margin. H1 shows NEW stronger; H0, not stronger by the margin; both name
    the table the margin belongs to."""
    trial = config(3, 1)
    h1 = closing_line(trial, verdict_status(Verdict.H1, 2.0, 0.4, 3.6), 6000, 60)
    assert h1.startswith(
        "H1 accepted: evidence that new is stronger than base (the interval is above 0; H1 was at least 25 Elo "
        "(2.70 points a game) at this table size and field (3 players, field field0)): difference +2.00 points a "
        "game [+0.40, +3.60] (90% at any stopping time)"
    )
    assert "or more" not in h1
    h0 = closing_line(trial, verdict_status(Verdict.H0, 0.5, -1.0, 2.0), 6000, 60)
    assert h0.startswith(
        "H0 accepted: evidence that new is not stronger than base by 25 Elo (2.70 points a game) at this table size "
        "and field (3 players, field field0) (the interval is below it): difference +0.50 points a game [-1.00, +2.00]"
    )
    undecided = closing_line(trial, verdict_status(Verdict.UNDECIDED, 1.0, -1.0, 3.0), 60, 60)
    assert undecided.endswith("the interval is neither above 0 nor below the margin +2.70")


def test_undecided_before_the_first_sets_a_verdict_needs_says_so_and_one_set_gives_no_los() -> None:
    """Two sets ended 'undecided ... [+9.42, +80.74] ..., the interval is neither above 0 nor below the margin',
    its interval plainly above 0; and one set showed LOS 50.0%, which it cannot tell."""
    trial = config(3, 1)
    early = replace(verdict_status(Verdict.UNDECIDED, 45.0, 9.4, 80.7), sets=2, games=12)
    assert closing_line(trial, early, 12, 12).endswith("no verdict is taken before 5 complete sets (2 so far)")
    assert "LOS 90.0%" in figures_text(early)
    one = replace(early, sets=1, games=6, los=0.5)
    assert "LOS -" in figures_text(one) and one.to_json()["los"] is None


def test_a_wide_elo_margin_is_decided_as_soon_as_the_sets_show_it() -> None:
    """At 1000 Elo the margin is 2.75 game deviations, and a set's spread was taken as 2.2 margins, six times what
    the mean of a set's games can spread: every set +10 points a game, its games spread 21, stayed undecided
    (an interval reaching 134 points above +10, over a margin of 58)."""
    field = (BotSpec.of("field0", GREEDY),)
    wide = TrialConfig(
        BotSpec.of("new", HEURISTIC), BotSpec.of("base", RANDOM), field, 3, Ruleset.of("amigo"), elo1=1000
    )
    sets = 10
    games = [30.0, -10.0, 40.0, -20.0, 10.0, 10.0] * sets
    status = first_status(wide, SetFigures([10.0] * sets, games, len(games)))
    assert status.verdict is Verdict.H0 and status.sets <= 6
    assert status.margin == pytest.approx(points_for_elo(1000, status.sigma))


def test_a_test_stored_under_the_earlier_sequential_test_is_not_played_on(tmp_path: Path) -> None:
    """A test decided by the GSPRT has its deal key revealed; the new test may read the same games as undecided, and
    would have dealt more sets from a key the bots may know. Such a test is refused, naming what changed."""
    args = (f"heuristic={HEURISTIC}", f"random={RANDOM}", "--max-games", "6")
    code, _, _ = rage_test(tmp_path, *args)
    assert code == 2
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        (key,) = db.execute("SELECT key FROM leagues").fetchone()
        db.execute("UPDATE leagues SET key = ?", (json.dumps(json.loads(key) | {"test": 1}),))
    code, _, err = rage_test(tmp_path, *args)
    assert code == 2 and "stored under other settings (test 1, now 2)" in err and "give the test a new --name" in err
    assert len(err.strip().splitlines()) == 1


RAISER = f"{Path(__file__).resolve().parents[2] / 'bots' / 'raiser.py'}:RaiserBot"


def test_the_verdict_says_which_bot_faulted_or_was_forfeited(tmp_path: Path) -> None:
    """A test whose NEW failed every fourth decision, and was forfeited, gave its verdict without a word of it."""
    args = ("--max-games", "6", "--max-faults", "5", "--seed", "1")
    code, out, err = rage_test(tmp_path / "text", f"raiser={RAISER}", f"random={RANDOM}", *args)
    assert code in (0, 1, 2), out + err
    lines = " ".join(out.split())
    found = re.search(r"NEW raiser: (\d+) faults charged, forfeited: the referee played for it in (\d+) games", lines)
    assert found is not None, out
    assert int(found[1]) == 5 and 1 <= int(found[2]) <= 6
    assert f"(its log: {tmp_path / 'text' / 'logs' / 'raiser.log'})" in lines
    assert "BASE random" not in lines
    told = " ".join(err.split())  # each fault as the game ends, as rage match tells them
    assert "game 0: raiser bot_error (round 1, trick 3, decision 10): RuntimeError: raiser fails" in told, err
    assert "raiser forfeited (forfeited after 5 faults)" in told, err

    code, out, _ = rage_test(tmp_path / "json", f"raiser={RAISER}", f"random={RANDOM}", *args, "--json")
    figures = json.loads(out)
    assert figures["faults"]["new"] == int(found[1]) and figures["faults"]["base"] == 0
    assert figures["forfeited_games"] == {"new": int(found[2]), "base": 0}
