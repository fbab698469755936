"""The CLI on bad input and interruptions: one line and an exit code, never a traceback, never a lost game.

- ``rage bot serve`` on a port in use; ``rage league export --out`` somewhere unwritable;
- ``rage match``: Ctrl-C prints the games finished so far (exit 130) and reveals the deal key beside
  the records; ``--records`` takes only a new or empty folder, so no two matches' records mix;
- record files that cannot be written (a full disk): a match stops with the figures of the games
  finished, a league stops with them stored and resumes; a league's ``records`` that is a file is refused;
- league files: settings out of range, deep nesting and text not UTF-8 are refused naming the key; a league with no
  game stored yet runs again under changed settings, and one with games names the settings changed.
"""

from __future__ import annotations

import errno
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rage_referee.league.config import LeagueConfigError, load_league

from tests.helpers.cli import one_line, rage
from tests.helpers.files import fifo, without_waiting

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
RAGE = str(Path(sys.executable).with_name("rage"))
RANDOM = f"{EXAMPLES / 'random_bot.py'}:RandomBot"
GREEDY = f"{EXAMPLES / 'greedy_bot.py'}:GreedyBot"


def league_file(folder: Path, *, bots: dict[str, str] | None = None, **settings: Any) -> Path:
    settings = {"name": "cup", "players": 3, "games": 6, "seed": 1} | settings  # one duplicate set
    lines = [f"{key} = {value!r}".replace("'", '"') for key, value in settings.items() if value is not None]
    lines += ["[ruleset]", 'preset = "amigo"', "rounds = [1]", "[bots]"]
    lines += [f'{name} = "{target}"' for name, target in (bots or {"a": RANDOM, "b": RANDOM, "c": GREEDY}).items()]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cup.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on."""
    with socket.socket(socket.AF_INET6) as holder:
        holder.bind(("::", 0))
        holder.listen()
        yield holder.getsockname()[1]


# --------------------------------------------------------------------------- serving and writing


def test_bot_serve_on_a_port_in_use_says_so_in_one_line(busy_port: int) -> None:
    done = rage("bot", "serve", RANDOM, "--port", str(busy_port))
    assert done.exit_code == 2
    line = one_line(done.stderr)
    assert line.startswith("--port: cannot listen on") and "in use" in line, line


def test_a_bot_file_on_a_port_in_use_says_so_in_one_line(busy_port: int, capsys: pytest.CaptureFixture[str]) -> None:
    from rage_sdk.examples.random_bot import RandomBot
    from rage_sdk.server import main

    with pytest.raises(SystemExit) as done:  # python random_bot.py --port BUSY
        main(RandomBot, ["--port", str(busy_port)])
    assert done.value.code == 2
    assert "in use" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    ("where", "said"),
    [
        (["--listen", "unix:{tmp}/none/bot.sock"], "--listen: cannot listen on unix:{tmp}/none/bot.sock: No such file"),
        (["--listen", "unix:{tmp}/file"], "--listen: cannot listen on unix:{tmp}/file: {tmp}/file is there already"),
        (["--listen", "unix:{tmp}/" + "s" * 120], "AF_UNIX path too long"),
        (["--host", "nosuchhost.invalid", "--port", "0"], "--host: cannot listen on nosuchhost.invalid:0: no such"),
    ],
    ids=["no-folder", "a-file", "too-long", "no-host"],
)
def test_bot_serve_where_it_cannot_listen_says_why_in_one_line(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], where: list[str], said: str
) -> None:
    """gRPC's own log line came first, then '--port: ... the port is in use, or the address is not one of
    this host', whatever was wrong."""
    (tmp_path / "file").write_text("not a socket")
    result = rage("bot", "serve", RANDOM, *(part.format(tmp=tmp_path) for part in where))
    assert result.exit_code == 2
    assert said.format(tmp=tmp_path) in one_line(result.output), result.output
    assert "add_port" not in capfd.readouterr().err


def test_league_export_somewhere_unwritable_says_so_in_one_line(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    assert rage("league", "run", file).exit_code == 0
    result = rage("league", "export", file, "--out", "/dev/null/x")
    assert result.exit_code == 2
    assert one_line(result.output).startswith("--out: cannot write /dev/null/x")


# --------------------------------------------------------------------------- rage match


def test_match_records_go_only_into_a_new_or_empty_folder(tmp_path: Path) -> None:
    records = tmp_path / "records"
    bots = ["--bot", f"a={RANDOM}", "--bot", f"b={RANDOM}", "--bot", f"c={GREEDY}", "--logs", str(tmp_path / "logs")]
    assert rage("match", *bots, "--games", "2", "--records", records).exit_code == 0
    assert sorted(path.name for path in records.iterdir()) == ["deal-key.json", "game-00000.json", "game-00001.json"]
    result = rage("match", *bots, "--games", "1", "--records", records)
    assert result.exit_code == 2
    assert "--records" in one_line(result.output) and "not empty" in result.output
    assert len(list(records.iterdir())) == 3
    (tmp_path / "empty").mkdir()
    assert rage("match", *bots, "--games", "1", "--records", tmp_path / "empty").exit_code == 0
    result = rage("match", *bots, "--games", "1", "--records", records / "game-00000.json")
    assert (result.exit_code, "not a folder" in result.output) == (2, True)


def signalled_once(process: subprocess.Popen[str], ready: Callable[[], bool], signum: int) -> tuple[str, str]:
    """Send ``signum`` to ``process`` once ``ready()`` holds (within a minute); its stdout and stderr."""
    try:
        deadline = time.monotonic() + 60
        while not ready():
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no game finished in time"
            time.sleep(0.05)
        process.send_signal(signum)
        return process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()


@pytest.mark.parametrize(
    ("signum", "sigint"),
    [
        (signal.SIGINT, signal.SIG_DFL),  # Ctrl-C, as a terminal gives it
        (signal.SIGINT, signal.SIG_IGN),  # a match a script started in the background (where SIGINT is ignored)
        (signal.SIGTERM, signal.SIG_IGN),  # kill PID: it ended the match in silence, every figure lost
    ],
    ids=["ctrl-c", "sigint-in-the-background", "sigterm"],
)
def test_ctrl_c_on_a_match_prints_the_games_finished_so_far(tmp_path: Path, signum: int, sigint: Any) -> None:
    records = tmp_path / "records"
    argv = [RAGE, "match", "--bot", f"a={RANDOM}", "--bot", f"b={RANDOM}", "--bot", f"c={GREEDY}"]
    argv += ["--games", "100000", "--records", str(records), "--logs", str(tmp_path / "logs")]
    if sigint == signal.SIG_IGN:  # an ignored signal stays ignored through exec, as a shell's background job has it
        argv = ["sh", "-c", 'trap "" INT; exec "$@"', "sh", *argv]
    # No preexec_fn: it makes Python fork where it would spawn, and a fork of this process (gRPC loaded by other
    # tests) may die before exec in gRPC's fork handler (its poller finds its epoll closed: SIGABRT).
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = signalled_once(process, lambda: len(list(records.glob("game-*.json"))) >= 3, signum)
    assert process.returncode == 130, err
    assert "Traceback" not in out + err
    assert "stopped after" in out and "of 100,000 games" in out
    finished = int(out.split("stopped after")[1].split()[0])
    assert finished >= 3
    assert len(list(records.glob("game-*.json"))) == finished  # every game counted has its record
    assert f"records in {records}/ with deal-key.json" in " ".join(out.split())  # revealed beside them, as said
    assert (records / "deal-key.json").is_file()


def test_sigterm_on_a_league_stops_it_as_ctrl_c_does_and_it_resumes(tmp_path: Path) -> None:
    file = league_file(tmp_path, players=2, games=120)  # 60 duplicate sets of 2 games
    process = subprocess.Popen(
        [RAGE, "league", "run", str(file)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    out, err = signalled_once(process, lambda: stored_games(file) >= 4, signal.SIGTERM)
    assert process.returncode == 130, err
    assert "Traceback" not in out + err
    assert "stopped; every finished game is stored in sqlite:///" in err and "run again to resume" in err
    kept = stored_games(file)
    assert 4 <= kept < 120
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    assert f"{kept} of 120 games stored already" in result.output
    assert stored_games(file) == 120


def stored_games(file: Path) -> int:
    """How many games the league of ``file`` has stored (0 before its database is made)."""
    database = file.parent / "league.sqlite"
    if not database.exists():
        return 0
    with sqlite3.connect(database) as connection:
        try:
            return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
        except sqlite3.OperationalError:  # the tables are not made yet
            return 0


@pytest.fixture
def full_disk(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record files fail to be written from the second on, as on a disk that has filled up; the names tried."""
    tried: list[str] = []
    replace = os.replace

    def filling(source: Any, target: Any) -> None:
        tried.append(Path(target).name)
        if Path(target).name.startswith("game-") and len(tried) > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        replace(source, target)

    monkeypatch.setattr(os, "replace", filling)
    return tried


def test_a_match_whose_records_cannot_be_written_stops_with_the_games_finished(
    tmp_path: Path, full_disk: list[str]
) -> None:
    records = tmp_path / "records"
    bots = ["--bot", f"a={RANDOM}", "--bot", f"b={GREEDY}", "--logs", str(tmp_path / "logs")]
    result = rage(
        "match", *bots, "--games", "4", "--ruleset", '{"preset": "amigo", "rounds": [1]}', "--records", records
    )
    assert result.exit_code == 1, result.output
    assert result.stderr.count("stopped: ") == 1
    assert f"stopped: cannot write {records / 'game-00001.json'}: No space left on device" in result.stderr
    assert "stopped after 2 of 4 games" in result.stdout  # the game whose record failed is counted
    assert sorted(path.name for path in records.iterdir()) == ["deal-key.json", "game-00000.json"]


def test_a_league_whose_records_cannot_be_written_stops_and_resumes(
    tmp_path: Path, full_disk: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    bots = {"a": RANDOM, "b": GREEDY}  # one table: a duplicate set of 2 is a round
    file = league_file(tmp_path, bots=bots, records="records", players=2, games=4)  # two duplicate sets of 2
    result = rage("league", "run", file)
    assert result.exit_code == 1, result.output
    stopped = [line for line in result.stderr.splitlines() if line.startswith("stopped: ")]
    assert len(stopped) == 1, result.stderr
    assert "No space left on device; every finished game is stored in sqlite:///" in stopped[0], stopped[0]
    assert "run again to resume" in stopped[0]
    monkeypatch.undo()  # room on the disk again
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (tmp_path / "records").iterdir()) == [f"game-0000{i}.json" for i in range(4)]


def test_a_league_whose_records_folder_is_a_file_is_refused(tmp_path: Path) -> None:
    file = league_file(tmp_path, records="records")
    (tmp_path / "records").write_text("not a folder")
    result = rage("league", "run", file)
    assert result.exit_code == 2, result.output
    assert (
        one_line(result.output)
        == f"{file}: records: cannot make the records folder {tmp_path / 'records'}: it is not a folder"
    )


def test_a_league_whose_records_folder_holds_another_leagues_records_is_refused(tmp_path: Path) -> None:
    def secret(file: Path) -> Path:  # dealt from a key of its own
        file.write_text(file.read_text().replace("seed = 1\n", ""))
        return file

    records = tmp_path / "records"
    first = secret(league_file(tmp_path / "first", name="cup", records="../records"))
    assert rage("league", "run", first).exit_code == 0
    written = sorted(path.read_text() for path in records.iterdir())
    assert len(written) == 6
    # its files of the same names would be overwritten: by another league, or this one afresh in a new database
    for folder, name in (("other", "other"), ("again", "cup")):
        second = secret(league_file(tmp_path / folder, name=name, records="../records"))
        result = rage("league", "run", second)
        assert result.exit_code == 2, result.output
        found = one_line(result.output)
        assert found.startswith(f"{second}: records: {second.parent / '../records'} holds game-0000"), found
        assert found.endswith(
            f", a record of league 'cup'{' dealt from another key' * (name == 'cup')}; "
            "give the league a records folder of its own"
        ), found
    assert sorted(path.read_text() for path in records.iterdir()) == written
    assert rage("league", "run", first).exit_code == 0  # the league itself goes on with its own


# --------------------------------------------------------------------------- league files and settings


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ({"seed": 2**63 - 1}, "seed"),
        ({"seed": 2**70}, "seed"),
        ({"games": 2**63}, "games"),
    ],
)
def test_league_settings_out_of_range_name_the_key(tmp_path: Path, settings: dict[str, Any], key: str) -> None:
    file = league_file(tmp_path, **settings)
    with pytest.raises(LeagueConfigError) as info:
        load_league(file)
    assert str(info.value).startswith(f"{file}: {key}: "), info.value


@pytest.mark.parametrize(
    ("settings", "refusal"),
    [
        ({"games_per_table": 250_000}, "games_per_table: 250,000 at each of 6 tables is 1,500,000 games"),
        ({"games": 1_000_000, "players": 3}, "games: 1,000,000 in whole rounds is 1,000,008 games"),
    ],
)
def test_a_league_past_the_games_limit_in_all_is_refused_naming_the_key(
    tmp_path: Path, settings: dict[str, Any], refusal: str
) -> None:
    # each setting is in range, but the schedule it makes is not: 4 bots meet at 6 tables of 2, at 3 at 4 tables
    # of 3 in rounds of a set of 6 at each (24 games)
    bots = {name: RANDOM for name in "abcd"}
    file = league_file(tmp_path, bots=bots, **({"players": 2, "games": None} | settings))
    with pytest.raises(LeagueConfigError) as info:
        load_league(file)
    assert str(info.value) == f"{file}: {refusal}; a league holds at most 1,000,000", info.value


@pytest.mark.parametrize("setting", ["decision_ms = 9223372036854775807", "bank_ms = 1180591620717411303424"])
def test_league_time_out_of_range_names_the_key(tmp_path: Path, setting: str) -> None:
    file = league_file(tmp_path)
    file.write_text(file.read_text() + f"[time]\n{setting}\n")
    result = rage("league", "run", file)
    assert result.exit_code == 2
    assert f"time.{setting.split()[0]}: " in one_line(result.output)


@pytest.mark.parametrize(
    ("top", "table", "refusal"),
    [
        ('players = "3"', "", 'players: Input should be a valid integer, not "3"'),
        ("players = 3.0", "", "players: Input should be a valid integer, not 3.0"),
        ('duplicate = "yes"', "", 'duplicate: Input should be a valid boolean, not "yes"'),
        ("duplicate = 1", "", "duplicate: Input should be a valid boolean, not 1"),
        ("concurrency = true", "", "concurrency: Input should be a valid integer, not true"),
        ('keep_going = "no"', "", 'keep_going: Input should be a valid boolean, not "no"'),
        ("", '[time]\ndecision_ms = "500"', 'time.decision_ms: Input should be a valid integer, not "500"'),
        ("", '[sandbox]\nenabled = "false"', 'sandbox.enabled: Input should be a valid boolean, not "false"'),
        ("", '[runner]\nkind = "ray"\nworkers = 2.0', "runner.workers: Input should be a valid integer, not 2.0"),
    ],
)
def test_a_league_setting_of_the_wrong_type_is_refused_naming_it(
    tmp_path: Path, top: str, table: str, refusal: str
) -> None:
    # TOML values carry their type: "3" or 3.0 for a number of players, 1 or "yes" for a switch, is a mistake
    file = league_file(tmp_path)
    text = file.read_text()
    if top:
        text = "\n".join(line for line in text.splitlines() if not line.startswith(top.split()[0] + " "))
        text = f"{top}\n{text}\n"
    file.write_text(text + table + "\n")
    result = rage("league", "run", file)
    assert result.exit_code == 2, result.output
    assert one_line(result.output) == f"{file}: {refusal}"


@pytest.mark.parametrize("command", [["league", "run"], ["referee", "create", "--referee", "127.0.0.1:1"]])
def test_a_deeply_nested_league_file_is_refused(tmp_path: Path, command: list[str]) -> None:
    file = league_file(tmp_path)
    file.write_text("x = " + "[" * 2000 + "]" * 2000 + "\n" + file.read_text())
    result = rage(*command, file)
    assert result.exit_code == 2, result.output[-2000:]
    assert one_line(result.output) == f"{file}: not valid TOML: nested too deeply"


def test_a_league_file_an_editor_began_with_a_byte_order_mark_reads(tmp_path: Path) -> None:
    """It was 'not valid TOML: Invalid statement (at line 1, column 1)', the mark unseen in the editor."""
    from rage_referee.league.config import load_league

    file = league_file(tmp_path)
    plain = load_league(file)
    file.write_bytes(b"\xef\xbb\xbf" + file.read_bytes())
    assert load_league(file) == plain


def test_a_league_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    file = league_file(tmp_path)
    file.write_bytes(b'name = "caf\xe9"\n' + file.read_bytes())
    result = rage("league", "run", file)
    assert result.exit_code == 2
    assert one_line(result.output) == f"{file}: not valid TOML: not UTF-8 text (byte 11)"


def test_a_league_with_no_game_stored_runs_again_under_changed_settings(tmp_path: Path) -> None:
    broken = league_file(tmp_path, bots={"a": RANDOM, "b": RANDOM, "c": "missing.py:Nobody"})
    result = rage("league", "run", broken)
    assert result.exit_code != 0  # the league is recorded, but no game is played
    fixed = league_file(tmp_path, seed=2)
    result = rage("league", "run", fixed)
    assert result.exit_code == 0, result.output
    assert "6 games" in result.output


def test_a_league_with_games_stored_names_the_settings_changed(tmp_path: Path) -> None:
    assert rage("league", "run", league_file(tmp_path)).exit_code == 0
    result = rage("league", "run", league_file(tmp_path, seed=2, games=12))
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert "has 6 games stored under other settings (games 6, now 12; seed 1, now 2)" in message, message


def test_a_league_whose_bots_changed_names_each_bot(tmp_path: Path) -> None:
    """It said only '(bots)', and the organizer looked for which of a dozen bots it was."""
    assert rage("league", "run", league_file(tmp_path)).exit_code == 0
    moved = league_file(tmp_path, bots={"a": RANDOM, "b": GREEDY, "d": GREEDY})
    result = rage("league", "run", moved)
    assert result.exit_code == 2
    message = " ".join(result.output.split())
    assert f'(bots: c gone, d added, b "{RANDOM}", now "{GREEDY}")' in message, message


@pytest.mark.parametrize("content", ["[" * 100_000, '{"meta": ' * 100_000, "\ufeff{}"])
def test_a_records_folder_holding_a_file_of_no_league_is_refused(tmp_path: Path, content: str) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "game-00000.json").write_text(content)
    file = league_file(tmp_path / "cup", name="cup", records="../records")
    result = rage("league", "run", file)
    assert result.exit_code == 2, result.output[-2000:]
    assert "game-00000.json, a file of no league" in one_line(result.output)


def test_a_records_folder_holding_a_fifo_is_refused_unread(tmp_path: Path) -> None:
    pipe = fifo(tmp_path / "records" / "game-00000.json")  # its reader waited for a writer for good
    file = league_file(tmp_path / "cup", name="cup", records="../records")
    result = without_waiting(lambda: rage("league", "run", file), pipe)
    assert result.exit_code == 2, result.output[-2000:]
    assert "game-00000.json, a file of no league" in one_line(result.output)


@pytest.mark.parametrize("command", [["league", "run"], ["referee", "create", "--referee", "127.0.0.1:1"]])
def test_a_league_file_that_is_a_fifo_is_refused_unread(tmp_path: Path, command: list[str]) -> None:
    """Nobody writing to it, a FIFO's reader waited for good."""
    pipe = fifo(tmp_path / "cup.toml")
    result = without_waiting(lambda: rage(*command, str(pipe)), pipe)
    assert result.exit_code == 2, result.output[-2000:]
    assert "cup.toml: cannot read: not a regular file (a FIFO)" in one_line(result.output) or (
        f"cannot read {pipe}: not a regular file (a FIFO)" in one_line(result.output)
    )


def test_a_league_file_past_its_size_is_refused_unread(tmp_path: Path) -> None:
    file = tmp_path / "cup.toml"
    file.write_text("# " + "x" * 2**20 + "\n")
    result = rage("league", "run", str(file))
    assert result.exit_code == 2 and "cup.toml: cannot read: larger than 1 MiB" in one_line(result.output)


def test_a_database_in_a_missing_folder_is_told_in_one_line_naming_the_folder(tmp_path: Path) -> None:
    file = league_file(tmp_path / "cup", database="new/deeper/cup.sqlite")
    made = (tmp_path / "cup" / "new" / "deeper").absolute()
    result = rage("league", "run", file)
    assert result.exit_code == 0, result.output
    told = [line for line in result.output.splitlines() if "no such folder" in line]
    assert told == [f"{made}: no such folder; made it for the database"]
    assert (made / "cup.sqlite").is_file()
    again = rage("league", "run", file)
    assert again.exit_code == 0 and "no such folder" not in again.output


def test_a_league_run_again_with_nothing_left_to_play_says_so_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file = league_file(tmp_path, records="records")
    assert rage("league", "run", file).exit_code == 0
    (tmp_path / "records" / "game-00005.json").unlink()  # as if the run stopped before the set's files were written

    def nothing_to_start(*_: Any) -> None:
        raise AssertionError("no sandbox, build or bot is made for no game")

    monkeypatch.setattr("rage_referee.cli.league.league_sandbox", nothing_to_start)
    monkeypatch.setattr("rage_referee.league.submitted.prepare_submissions", nothing_to_start)
    again = rage("league", "run", file)
    assert again.exit_code == 0, again.output
    assert "cup: all 6 games are stored already: nothing left to play" in again.output.splitlines()
    assert "playing the other" not in again.output and "cup: 6 games" in again.output
    assert (tmp_path / "records" / "game-00005.json").is_file()


def test_a_league_of_submitted_bots_run_again_with_nothing_left_to_play_says_so_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its submitted bots are not built or started again: the league's stored versions stand (a run again was
    refused, 'stored under other settings (versions)', having asked for none)."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text((EXAMPLES / "random_bot.py").read_text())
    (bot / "rage-bot.toml").write_text('name = "rnd"\nruntime = "python"\nrun = "python bot.py"\n')
    file = league_file(tmp_path, bots={"a": "submission:bot", "b": RANDOM, "c": GREEDY})
    first = rage("league", "run", file)
    assert first.exit_code == 0, first.output

    def nothing_to_start(*_: Any) -> None:
        raise AssertionError("no sandbox, build or bot is made for no game")

    monkeypatch.setattr("rage_referee.cli.league.league_sandbox", nothing_to_start)
    monkeypatch.setattr("rage_referee.league.submitted.prepare_submissions", nothing_to_start)
    again = rage("league", "run", file)
    assert again.exit_code == 0, again.output
    assert "cup: all 6 games are stored already: nothing left to play" in again.output.splitlines()
    assert "submitted bots' versions: a " in again.output


def league_with_its_own_bots(folder: Path) -> Path:
    """A league whose bots are files of its folder: a command, a module, and a program on PATH."""
    (folder / "bots").mkdir(parents=True)
    for name in ("random_bot.py", "greedy_bot.py"):
        (folder / "bots" / name).write_text((EXAMPLES / name).read_text())
    bots = {
        "launched": "python bots/random_bot.py",
        "module": "bots/greedy_bot.py:GreedyBot",
        "on-path": f"{Path(sys.executable).name} bots/random_bot.py",
    }
    return league_file(folder, bots=bots, database="league.sqlite")


@pytest.mark.parametrize("inside", [False, True], ids=["from-elsewhere", "from-its-folder"])
def test_every_path_of_a_league_file_is_read_from_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, inside: bool
) -> None:
    folder = tmp_path / "league"
    file = league_with_its_own_bots(folder)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.chdir(folder if inside else tmp_path)
    result = rage("league", "run", file.name if inside else file)
    assert result.exit_code == 0, result.output
    assert "cup: 6 games" in result.output
    assert (folder / "league.sqlite").is_file() and (folder / "logs" / "cup" / "launched.log").is_file()


def test_bots_on_ray_with_a_working_dir_are_read_from_it(tmp_path: Path) -> None:
    """Ray ships the working_dir to each worker, which runs the commands inside it (docs/ray.md)."""
    file = league_with_its_own_bots(tmp_path / "league")
    assert {spec.folder for spec in load_league(file).bot_specs()} == {file.parent.absolute()}
    file.write_text(file.read_text().replace("[bots]", '[runner]\nkind = "ray"\nworking_dir = "bots"\n[bots]'))
    assert {spec.folder for spec in load_league(file).bot_specs()} == {None}


def test_a_bot_file_missing_from_the_league_folder_is_named_by_its_resolved_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "league"
    file = league_with_its_own_bots(folder)
    file.write_text(file.read_text().replace("bots/greedy_bot.py:GreedyBot", "bots/nobody.py:Nobody"))
    monkeypatch.chdir(tmp_path)
    result = rage("league", "run", file)
    assert result.exit_code == 1
    assert f"no file {folder / 'bots' / 'nobody.py'}" in " ".join(result.output.split())
    text = file.read_text().replace("bots/nobody.py:Nobody", "bots/greedy_bot.py:GreedyBot")
    file.write_text(text.replace("python bots/random_bot.py", "./bots/nothing"))
    result = rage("league", "run", file)
    assert result.exit_code == 1
    assert f"in {folder}" in " ".join(result.output.split()), result.output


def test_a_referee_database_in_a_missing_folder_is_told_in_one_line(tmp_path: Path, busy_port: int) -> None:
    made = tmp_path / "new" / "deeper"
    result = rage("referee", "serve", "--db", made / "referee.sqlite", "--port", str(busy_port))
    assert result.exit_code == 1, result.output  # the port is in use: the folder is made first
    told = [line for line in result.output.splitlines() if "no such folder" in line]
    assert told == [f"{made}: no such folder; made it for the database"]


@pytest.mark.parametrize("text", ["", " \n\n"])
def test_an_empty_league_file_is_refused_naming_it(tmp_path: Path, text: str) -> None:
    """rage referee create said 'definition: missing', naming neither the file nor what it lacks."""
    file = tmp_path / "contest.toml"
    file.write_text(text)
    result = rage("referee", "create", "--referee", "127.0.0.1:1", "--token", "x", file)
    assert result.exit_code == 2, result.output
    expected = f"{file}: the file is empty; give a league file, or a contest file (one with a [ladder] table)"
    assert one_line(result.output) == expected


def test_a_league_file_past_the_referees_bound_is_refused_before_the_call(tmp_path: Path) -> None:
    """Past 64 KiB it came back as 'refused (RESOURCE_EXHAUSTED): ... Received message larger than max'."""
    file = tmp_path / "contest.toml"
    file.write_text("# " + "x" * 100_000 + "\n")
    result = rage("referee", "create", "--referee", "127.0.0.1:1", "--token", "x", file)
    assert result.exit_code == 2, result.output
    assert one_line(result.output) == f"{file}: at most 32 KiB for the referee, not 100,003 bytes"


@pytest.mark.parametrize("text", ["", "# nothing yet\n"])
def test_running_an_empty_league_file_says_it_is_empty(tmp_path: Path, text: str) -> None:
    """rage league run said 'bots: missing' of a file with nothing in it."""
    file = tmp_path / "league.toml"
    file.write_text(text)
    result = rage("league", "run", file)
    assert result.exit_code == 2, result.output
    assert one_line(result.output) == f"{file}: the file is empty; a league file names its bots in [bots] at least"


def test_the_settings_changed_name_bots_listed_by_name_alone_and_a_rulesets_options() -> None:
    """A hosted league's key lists its bots by name: a bot replaced read 'their order, which the schedule follows'."""
    from rage_referee.league.store import settings_changed

    assert settings_changed({"bots": ["a", "b", "c"]}, {"bots": ["a", "b", "d"]}) == "bots: c gone, d added"
    order = "bots: their order, which the schedule follows"
    assert settings_changed({"bots": ["a", "b"]}, {"bots": ["b", "a"]}) == order
    rules = {"preset": "amigo", "bidding": "open"}
    assert settings_changed({"ruleset": rules}, {"ruleset": rules | {"bidding": "secret"}}) == (
        'ruleset: bidding "open", now "secret"'
    )
