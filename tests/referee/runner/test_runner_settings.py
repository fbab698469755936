"""The league file's [runner] table and rage league run --ray: bad values are one line naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from rage_referee.cli import app
from rage_referee.league.config import LeagueConfigError, load_league
from rage_referee.runner.settings import RunnerKind, RunnerSettings
from typer.testing import CliRunner

LEAGUE = """name = "r"
players = 2
games = 2
seed = 1
{extra}
[ruleset]
preset = "amigo"
[bots]
a = "examples/random_bot.py:RandomBot"
b = "examples/greedy_bot.py:GreedyBot"
"""


def league(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "league.toml"
    path.write_text(LEAGUE.format(extra=extra))
    return path


def test_a_league_runs_here_unless_its_file_says_otherwise(tmp_path: Path) -> None:
    assert load_league(league(tmp_path)).runner == RunnerSettings()
    ray = load_league(league(tmp_path, '[runner]\nkind = "ray"\naddress = "10.0.0.5:6379"\nworkers = 8')).runner
    assert (ray.kind, ray.address, ray.workers) == (RunnerKind.RAY, "10.0.0.5:6379", 8)


@pytest.mark.parametrize(
    ("table", "fragment"),
    [
        ('kind = "slurm"', "runner.kind: Input should be 'local' or 'ray'"),
        ("workers = 0", "runner.workers: Input should be greater than or equal to 1"),
        ('kind = "ray"\nworkers = "many"', "runner.workers: Input should be a valid integer"),
        ('address = "auto"', 'runner: address: only for kind = "ray"'),
        ("workers = 2", 'runner: workers: only for kind = "ray"'),
        ('kind = "ray"\naddress = "no port"', "runner: address: 'no port' is not auto, HOST:PORT or ray://HOST:PORT"),
        ('kind = "ray"\nnodes = 3', "runner: unknown setting 'nodes'"),
        ('kind = "ray"\nworker = 3', "runner: unknown setting 'worker' (did you mean workers?)"),
    ],
)
def test_a_bad_runner_table_is_one_line_naming_the_key(tmp_path: Path, table: str, fragment: str) -> None:
    path = league(tmp_path, "[runner]\n" + table)
    with pytest.raises(LeagueConfigError, match="^" + str(path)) as caught:
        load_league(path)
    assert fragment in str(caught.value)
    result = CliRunner().invoke(app, ["league", "run", str(path)])
    assert result.exit_code == 2 and fragment in result.output and "Traceback" not in result.output


def test_ray_option_keeps_the_files_workers_and_refuses_a_bad_address(tmp_path: Path) -> None:
    settings = RunnerSettings.model_validate({"kind": "ray", "workers": 3})
    moved = RunnerSettings.ray("ray://head:10001", settings)
    assert (moved.kind, moved.address, moved.workers) == (RunnerKind.RAY, "ray://head:10001", 3)
    assert RunnerSettings.ray("auto").workers is None
    result = CliRunner().invoke(app, ["league", "run", str(league(tmp_path)), "--ray", "head"])
    assert result.exit_code == 2
    assert result.output.strip() == "--ray: 'head' is not auto, HOST:PORT or ray://HOST:PORT"
    assert not (tmp_path / "league.sqlite").exists()


def test_ray_settings_without_ray_installed_say_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import importlib.util

    from rage_referee.play.game import FaultLedger
    from rage_referee.runner.base import RunnerError

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(RunnerError, match=r"^the Ray runner needs Ray: pip install 'rage-arena\[ray\]'$"):
        RunnerSettings(kind=RunnerKind.RAY).make([], FaultLedger(1), log_dir=tmp_path)


def test_a_ray_address_where_nothing_listens_is_one_line(tmp_path: Path) -> None:
    import importlib.util

    from rage_referee.seats import free_port

    from tests.conftest import require

    require(importlib.util.find_spec("ray") is not None, "Ray", "pip install -e '.[ray]' (make install does)")
    address = f"127.0.0.1:{free_port()}"
    result = CliRunner().invoke(app, ["league", "run", str(league(tmp_path)), "--ray", address])
    assert result.exit_code == 1, result.output
    assert f"cannot run the league: cannot reach the Ray cluster at {address}: Connection refused" in result.output
    assert "Traceback" not in result.output


def test_one_worker_keeps_the_cluster_and_its_working_dir(tmp_path: Path) -> None:
    settings = RunnerSettings.model_validate({"kind": "ray", "workers": 8, "working_dir": "bots"})
    one = RunnerSettings.ray("10.0.0.5:6379", settings).one_worker()
    assert (one.kind, one.address, one.workers, one.working_dir) == (RunnerKind.RAY, "10.0.0.5:6379", 1, "bots")
    assert RunnerSettings().one_worker() == RunnerSettings()
