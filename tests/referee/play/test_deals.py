"""Secret deals: no seat can recover them, the key is committed to before the first game, kept out of
every record, log and message until revealed, and an explicit seed says its deals are public."""

from __future__ import annotations

import asyncio
import json
import shlex
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.hosted.addresses import AllowList
from rage_referee.hosted.events import EventHub
from rage_referee.hosted.leagues import LeagueManager
from rage_referee.hosted.registry import LeagueStatus, Registry
from rage_referee.league.config import load_league
from rage_referee.league.runner import plan_league, run_league
from rage_referee.league.store import Store
from rage_referee.matches.match import run_match
from rage_referee.play.deals import Deals, deal_seed
from rage_referee.play.finished import FinishedGame
from rage_referee.seats import BotSpec
from rage_sdk.cards import token
from rage_sdk.deal import key_commitment, keyed_seed, seeded_deal
from rage_sdk.rules import Ruleset
from typer.testing import CliRunner

from tests.helpers.game_records import finished_game

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
BOTS_DIR = Path(__file__).resolve().parents[2] / "bots"
BOTS = {
    "heuristic": f"{EXAMPLES / 'heuristic_bot.py'}:HeuristicBot",
    "greedy": f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot",
    "random": f"{EXAMPLES / 'random_bot.py'}:RandomBot",
}
AMIGO = Ruleset.of("amigo")
PLAYERS = 3
runner = CliRunner()


def rage(*args: str | Path) -> Any:
    return runner.invoke(app, [str(arg) for arg in args])


def flat(text: str) -> str:
    return " ".join(text.split())


def league_file(directory: Path, *, seed: int | None = None, games: int = 6, bots: dict[str, str] = BOTS) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    lines = ['name = "deals"', f"players = {PLAYERS}", f"games = {games}", 'database = "league.sqlite"']
    lines += ['records = "records"', "concurrency = 3"] + ([] if seed is None else [f"seed = {seed}"])
    lines += ["[ruleset]", 'preset = "amigo"', "[bots]"] + [f'"{name}" = {json.dumps(t)}' for name, t in bots.items()]
    path = directory / "league.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def records_in(directory: Path) -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in sorted(directory.glob("game-*.json"))]


# --------------------------------------------------------------------------- the derivation
def test_keyed_seed_and_commitment_follow_the_documented_test_vector() -> None:
    """rage_sdk/deal.py's page gives these figures, for other languages to check against."""
    key = bytes(32)
    assert key_commitment(key) == "a5344087cba9287b8a5718b5a11272ffc311643f048278cd9bfff83712cdd496"
    assert keyed_seed(key, 0) == 7475893096318120968
    assert keyed_seed(key, 1) == 1982567860715312904


def test_keyed_seeds_fit_the_seed_column_and_differ_by_set() -> None:
    key = bytes(range(32))
    seeds = [keyed_seed(key, index) for index in range(2000)]
    assert all(0 <= seed < 2**63 for seed in seeds)  # the database's BigInteger is signed 64-bit
    assert len(set(seeds)) == len(seeds)
    assert deal_seed(7, key=key, seed=0) == seeds[7]
    assert deal_seed(7, key=None, seed=3) == (3 << 32) + 7
    with pytest.raises(ValueError, match="32 bytes"):
        keyed_seed(bytes(16), 0)


# --------------------------------------------------------------------------- the cheater
CHEATER_SEEDS = range(64)
CHEATER_GAMES = range(64)


class SeedCheater:
    """A bot that knows the documented shuffle and reads its own round-1 hand: it tries small seeds
    and every derivation the command line offers for them (``seed``, ``seed + g``, ``(seed << 32) + g``)."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        candidates = {s + g for s in CHEATER_SEEDS for g in CHEATER_GAMES}
        candidates |= {(s << 32) + g for s in CHEATER_SEEDS for g in CHEATER_GAMES}
        self.ruleset, self.players = ruleset, players
        self.hands: dict[tuple[int, tuple[str, ...]], int] = {}
        for seed in candidates:
            for seat, hand in enumerate(seeded_deal(ruleset, players, seed, 1).hands):
                self.hands[(seat, tuple(sorted(map(token, hand))))] = seed

    def recover(self, seat: int, hand: list[str]) -> int | None:
        """The seed of the deal, found from the seat's round-1 hand alone; ``None`` when the search fails."""
        return self.hands.get((seat, tuple(sorted(hand))))

    def recovered_games(self, records: list[dict[str, Any]]) -> int:
        """Games whose every hand and whole pile of every round the cheater now knows."""
        found = 0
        for record in records:
            seed = self.recover(0, record["rounds"][0]["hands"][0])
            if seed is None:
                continue
            for number, round_ in enumerate(record["rounds"], start=1):
                deal = seeded_deal(self.ruleset, self.players, seed, number)
                assert round_["hands"] == [[token(card) for card in hand] for hand in deal.hands]
                assert round_["pile"] == [token(card) for card in deal.pile]
            found += 1
        return found


@pytest.fixture(scope="module")
def cheater() -> SeedCheater:
    return SeedCheater(AMIGO, PLAYERS)


def match_records(directory: Path, *options: str) -> list[dict[str, Any]]:
    bots = [f"--bot={name}={target}" for name, target in BOTS.items()]
    result = rage("match", *bots, "--games", "3", "--records", directory, *options)
    assert result.exit_code == 0, result.output
    return records_in(directory)


def test_cheater_cannot_recover_a_default_match_but_recovers_an_explicit_small_seed(
    cheater: SeedCheater, tmp_path: Path
) -> None:
    assert cheater.recovered_games(match_records(tmp_path / "seeded", "--seed", "5")) == 3
    assert cheater.recovered_games(match_records(tmp_path / "default")) == 0


def test_cheater_cannot_recover_a_default_league_but_recovers_an_explicit_small_seed(
    cheater: SeedCheater, tmp_path: Path
) -> None:
    for name, seed, expected in (("seeded", 2, 6), ("default", None, 0)):
        file = league_file(tmp_path / name, seed=seed)
        result = rage("league", "run", file)
        assert result.exit_code == 0, result.output
        assert cheater.recovered_games(records_in(file.parent / "records")) == expected, name


# --------------------------------------------------------------------------- commitment and secrecy
def test_league_shows_its_commitment_and_stores_it_in_every_record(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    run = rage("league", "run", file)
    assert run.exit_code == 0, run.output
    store = Store(f"sqlite:///{tmp_path / 'league.sqlite'}")
    stored = store.deal_key(store.league("deals"))
    store.close()
    assert stored is not None and not stored.revealed
    commitment = key_commitment(stored.key)
    assert f"deals: secret, commitment {commitment}" in flat(run.output)
    assert flat(run.output).index(commitment) < flat(run.output).index("games")  # before the table
    records = records_in(tmp_path / "records")
    assert len(records) == 6 and all(record["meta"]["deal_commitment"] == commitment for record in records)
    ratings = rage("ratings", "--league", file)
    assert ratings.exit_code == 0 and f"commitment {commitment}" in flat(ratings.output)


def test_explicit_seed_says_its_deals_are_public_and_commits_to_nothing(tmp_path: Path) -> None:
    file = league_file(tmp_path / "league", seed=4)
    run = rage("league", "run", file)
    assert run.exit_code == 0 and "deals: public (seed 4)" in flat(run.output)
    assert all("deal_commitment" not in record["meta"] for record in records_in(file.parent / "records"))
    reveal = rage("league", "reveal", file)
    assert reveal.exit_code == 2 and "public already" in flat(reveal.output)
    bots = [f"--bot={name}={target}" for name, target in BOTS.items()]
    match = rage("match", *bots, "--games", "1", "--seed", "4", "--records", tmp_path / "match")
    assert match.exit_code == 0 and "deals: public (seed 4)" in flat(match.output)
    assert "public deals, seed 4" in flat(match.output)
    assert not (tmp_path / "match" / "deal-key.json").exists()


def secrets_of(key: bytes) -> list[bytes]:
    return [key, key.hex().encode(), key.hex().upper().encode()]


def files_holding(directory: Path, key: bytes, skip: frozenset[Path] = frozenset()) -> list[Path]:
    return [
        path
        for path in directory.rglob("*")
        if path.is_file() and path not in skip and any(secret in path.read_bytes() for secret in secrets_of(key))
    ]


def test_league_key_reaches_no_bot_record_log_or_output_before_it_is_revealed(tmp_path: Path) -> None:
    dump = tmp_path / "recorder.bin"
    recorder = shlex.join([sys.executable, str(BOTS_DIR / "recorder.py"), "--dump", str(dump), "--port", "{port}"])
    bots = {"heuristic": BOTS["heuristic"], "random": BOTS["random"], "recorder": recorder}
    file = league_file(tmp_path, bots=bots, games=3)
    run = rage("league", "run", file)
    assert run.exit_code == 0, run.output
    database = tmp_path / "league.sqlite"
    store = Store(f"sqlite:///{database}")
    stored = store.deal_key(store.league("deals"))
    store.close()
    assert stored is not None
    assert dump.stat().st_size > 0 and (tmp_path / "logs").is_dir()  # the bot saw its games; its log is kept
    assert files_holding(tmp_path, stored.key, skip=frozenset({database})) == []
    assert stored.key.hex() not in run.output
    reveal = rage("league", "reveal", file)
    assert reveal.exit_code == 0 and stored.key.hex() in flat(reveal.output)


def test_reveal_is_refused_before_the_last_game(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    config = load_league(file)
    store = Store(config.database_url(tmp_path))
    plan = plan_league(config, store)
    asyncio.run(run_league(config, store, replace(plan, games=plan.games[:3]), tmp_path / "logs"))
    store.close()
    reveal = rage("league", "reveal", file)
    assert reveal.exit_code == 2 and "3 games are not played yet" in flat(reveal.output)
    assert "Traceback" not in reveal.output


def test_match_reveals_its_key_only_after_the_last_game(tmp_path: Path) -> None:
    records = tmp_path / "records"
    seen: list[bool] = []

    def finished(game: FinishedGame) -> None:
        seen.append((records / "deal-key.json").exists())

    specs = [BotSpec.of(name, target) for name, target in BOTS.items()]
    result = asyncio.run(run_match(specs, AMIGO, 3, records=records, log_dir=tmp_path, on_game=finished))
    assert seen == [False, False, False]
    revealed = json.loads((records / "deal-key.json").read_text())
    assert result.deals.key is not None and revealed["key"] == result.deals.key.hex()
    assert revealed["commitment"] == key_commitment(result.deals.key)
    assert files_holding(records, result.deals.key, skip=frozenset({records / "deal-key.json"})) == []
    for g, record in enumerate(records_in(records)):
        assert record["meta"]["deal_commitment"] == revealed["commitment"]
        deal = seeded_deal(AMIGO, PLAYERS, Deals(result.deals.key).seed_for(g), 1)
        assert record["rounds"][0]["hands"] == [[token(card) for card in hand] for hand in deal.hands]


def test_hosted_records_wait_until_every_game_dealt_the_same_hands_is_played(tmp_path: Path) -> None:
    """A finished game's record shows its deal: while the league runs, it is withheld until the other
    games of its duplicate set (the same hands, other seats) are played, or a bot could read them first."""
    store = Store(f"sqlite:///{tmp_path / 'contest.sqlite'}")
    registry = Registry(store.engine)
    manager = LeagueManager(registry, store, EventHub(), AllowList.parse([]))
    league_id = store.league("cup", {"any": "key"})
    entry = registry.add_league("cup", league_id, "players = 2\n", ["a", "b"], '"amigo"', 2, 4)
    registry.set_status("cup", LeagueStatus.RUNNING)
    entry = registry.league("cup")

    def finish(index: int) -> None:
        store.add(league_id, finished_game(index, ("a", "b"), set_id=index // 2))

    finish(0)
    assert "shares its deal with 1 games still to be played" in (manager.withheld(entry, 0) or "")
    finish(1)
    finish(2)
    assert manager.withheld(entry, 1) is None and manager.withheld(entry, 2) is not None
    assert manager.withheld(registry.set_status("cup", LeagueStatus.CANCELLED), 2) is None
    store.close()


def test_league_record_files_wait_until_every_game_dealt_the_same_hands_is_played(tmp_path: Path) -> None:
    """A record on disk shows its deal to any bot process that looks: the files of a duplicate set appear
    together, once its last game is stored, and a run that starts writes those a stopped run left."""
    file = league_file(tmp_path, games=6)
    config = load_league(file)
    store = Store(config.database_url(tmp_path))
    plan = plan_league(config, store)
    records = tmp_path / "records"
    sets = {game.set_id: {g.index for g in plan.games if g.set_id == game.set_id} for game in plan.games}
    played: set[int] = set()
    early: list[str] = []

    def finished(game: FinishedGame) -> None:
        played.add(game.index)
        for path in records.glob("game-*.json"):
            if not sets[plan.games[int(path.stem[5:])].set_id] <= played:
                early.append(f"{path.name} after game {game.index}")

    first_set = sorted(sets[0])
    partial = replace(plan, done={game.index for game in plan.games} - set(first_set[:2]))  # stopped inside set 0
    asyncio.run(run_league(config, store, partial, tmp_path / "logs", records, on_game=finished))
    assert played == set(first_set[:2]) and not records.exists()
    asyncio.run(run_league(config, store, plan_league(config, store), tmp_path / "logs", records, on_game=finished))
    store.close()
    assert early == []
    assert sorted(path.name for path in records.glob("game-*.json")) == [f"game-{k:05d}.json" for k in range(6)]
