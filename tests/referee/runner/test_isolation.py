"""Isolation: a bot that remembers every hand it saw (tests/bots/rememberer.py) knows the other seats'
cards in a duplicate set's later games when one process plays the whole league, and never under
``deal`` or ``game`` isolation, concurrent games and the sandbox included; the games played and
stored are the same under each."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest
from rage_referee.hosted.definition import read_definition
from rage_referee.hosted.errors import InvalidArgument
from rage_referee.league.config import LeagueConfigError, load_league
from rage_referee.matches.match import duplicate_specs
from rage_referee.play.deals import Deals
from rage_referee.play.finished import FinishedGame
from rage_referee.play.game import FaultLedger
from rage_referee.play.spec import GameSpec, Occasion, TimeControl
from rage_referee.runner import Isolation
from rage_referee.runner import isolation as lending
from rage_referee.runner.isolation import interleaved
from rage_referee.seats import BotHandle, BotIdentity, BotSpec, LocalConnection
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.record import ruleset_of

from tests.conftest import require, require_command
from tests.helpers.league import ROOT, flat, rage, stored

REMEMBERER = ROOT / "tests" / "bots" / "rememberer.py"
RANDOM = ROOT / "examples" / "random_bot.py"
KNEW = "rememberer: knew every hand"
GAMES = 8
"""Four duplicate sets of two games (two seats): each set's second game deals its first game's hands again."""


def league(folder: Path, *, isolation: str | None, concurrency: int, sandbox: bool = False, bots: str = "") -> Path:
    """A two-seat league of short games: the rememberer against the random bot."""
    lines = ['name = "iso"', "players = 2", f"games = {GAMES}", "seed = 5", f"concurrency = {concurrency}"]
    lines += [] if isolation is None else [f'isolation = "{isolation}"']
    lines += ["[ruleset]", 'preset = "amigo"', "rounds = [4, 3]", "[time]", "decision_ms = 2000"]
    lines += ["[sandbox]", f"enabled = {str(sandbox).lower()}", "[bots]"]
    lines += [bots or f'mem = "python {REMEMBERER} --budget-ms 2"', f'random = "python {RANDOM}"']
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "league.toml").write_text("\n".join(lines) + "\n")
    return folder / "league.toml"


def played(path: Path) -> tuple[int, int]:
    """Run the league: the rounds the rememberer knew every hand of, and the processes it was launched in."""
    result = rage("league", "run", path)
    assert result.exit_code == 0, result.output
    assert sorted(game.index for game in stored(path)) == list(range(GAMES))
    logs = list((path.parent / "logs").rglob("mem.log"))
    knew = sum(log.read_text().count(KNEW) for log in logs)
    return knew, len(logs)


def spec(index: int, set_id: int) -> GameSpec:
    return GameSpec(index, ruleset_of({"preset": "amigo"}), ("a", "b"), 0, occasion=Occasion(set_id=set_id))


def test_interleaving_plays_a_window_of_sets_first_games_first_keeping_every_game() -> None:
    games = [spec(index, index // 3) for index in range(10)]  # sets of 3, the last cut short
    order = [game.game_id for game in interleaved(games, 2)]
    assert order == [0, 3, 1, 4, 2, 5, 6, 9, 7, 8]
    assert [game.game_id for game in interleaved(games, 1)] == list(range(10))


def test_the_isolation_key_is_checked_and_defaults_to_deal_for_untrusted_bots(tmp_path: Path) -> None:
    config = load_league(league(tmp_path, isolation=None, concurrency=1))
    assert config.isolation_for(untrusted=True) is Isolation.DEAL
    assert config.isolation_for(untrusted=False) is Isolation.LEAGUE
    assert load_league(league(tmp_path, isolation="game", concurrency=1)).isolation_for(True) is Isolation.GAME
    with pytest.raises(LeagueConfigError, match="isolation: "):
        load_league(league(tmp_path, isolation="set", concurrency=1))
    text = (tmp_path / "league.toml").read_text().replace("[bots]", "").split("mem =")[0]
    with pytest.raises(InvalidArgument, match=r"definition\.isolation"):
        read_definition(text, "", {"mem": "127.0.0.1:1", "random": "127.0.0.1:2"})


@pytest.mark.slow
def test_one_process_for_the_league_lets_a_bot_remember_the_hands_of_a_sets_earlier_game(tmp_path: Path) -> None:
    knew, processes = played(league(tmp_path, isolation="league", concurrency=1))
    assert processes == 1
    assert knew == 4 * 2  # every round of each set's second game: the attack is real


@pytest.mark.slow
@pytest.mark.parametrize(("isolation", "processes"), [("deal", 2), ("game", GAMES)])
def test_isolated_processes_never_know_a_hand_they_were_not_dealt(
    tmp_path: Path, isolation: str, processes: int
) -> None:
    knew, launched = played(league(tmp_path, isolation=isolation, concurrency=3))
    assert knew == 0
    assert launched == processes  # deal: one process per game of a set, each reused across the sets


@pytest.mark.slow
def test_sandboxed_leagues_isolate_by_deal_unless_told_otherwise(tmp_path: Path) -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    tmp_path.chmod(0o755)
    knew, launched = played(league(tmp_path, isolation=None, concurrency=3, sandbox=True))
    assert (knew, launched) == (0, 2)


ONCE = """
import sys
from pathlib import Path

from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.server import main

marker = Path(sys.argv[1])
if marker.exists():
    sys.exit("started once already: not again")
marker.touch()
main(RandomBot, sys.argv[2:])
"""


@pytest.mark.slow
@pytest.mark.parametrize("keep_going", [False, True])
def test_a_process_that_cannot_start_when_a_game_needs_it_is_a_bot_that_cannot_start(
    tmp_path: Path, keep_going: bool
) -> None:
    (tmp_path / "once.py").write_text(ONCE)
    bots = f'once = "{sys.executable} {tmp_path / "once.py"} {tmp_path / "started"}"'
    path = league(tmp_path, isolation="deal", concurrency=1, bots=bots)
    result = rage("league", "run", path, *(["--keep-going"] if keep_going else []))
    if not keep_going:
        assert result.exit_code == 1
        assert "cannot run the league: once: " in flat(result.output)
        assert "started once already: not again" in flat(result.output)
        return
    assert result.exit_code == 0, result.output
    faults = [fault for game in stored(path) for fault in game.figures.faults]
    assert faults and {fault.kind.value for fault in faults} == {"forfeited"}
    assert "could not start" in faults[0].detail


class StartedInProcess(BotHandle):
    """A launched bot's handle whose process is the random bot in this process: its start takes a
    moment, as a launch does, so games lent it meanwhile wait for it."""

    async def start(self) -> BotIdentity:
        await asyncio.sleep(0.01)
        self.connection = LocalConnection(RandomBot)
        return await self.connection.open()


@pytest.mark.parametrize("isolation", [Isolation.DEAL, Isolation.GAME])
def test_no_process_plays_two_games_of_a_set_even_when_they_play_at_once(
    isolation: Isolation, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    bots = [BotSpec.of(name, f"python {name}.py") for name in ("a", "b", "c")]
    ruleset = ruleset_of({"preset": "amigo", "rounds": [1]})
    games = duplicate_specs([bot.name for bot in bots], ruleset, 24, Deals.public(1), TimeControl())  # 4 sets of 6
    played: list[tuple[int, str, int]] = []  # game's set, bot, process
    real_play_game = lending.play_game

    async def noting(spec: GameSpec, handles: dict[str, BotHandle], ledger: FaultLedger) -> FinishedGame:
        played.extend((spec.set_id, name, id(handle)) for name, handle in handles.items())
        return await real_play_game(spec, handles, ledger)

    monkeypatch.setattr(lending, "play_game", noting)
    seating = lending.Seating(bots, isolation, tmp_path, StartedInProcess, forfeit_on_failure=False)

    async def play_all() -> None:
        await seating.start([bot.name for bot in bots], keep_going=False)
        try:  # two sets at a time, first games first, all at once: no process lent twice in a set
            await asyncio.gather(*(seating.play(spec, FaultLedger(20)) for spec in lending.interleaved(games, 2)))
        finally:
            await seating.stop()

    asyncio.run(play_all())
    assert len(played) == 24 * 3
    assert len({(set_id, process) for set_id, _, process in played}) == len(played)
    processes = {bot.name: {process for _, name, process in played if name == bot.name} for bot in bots}
    assert {name: len(ids) for name, ids in processes.items()} == {
        b.name: 6 if isolation is Isolation.DEAL else 24 for b in bots
    }
