"""A sandboxed bot's Python holds the SDK and its dependencies, and none of the referee's other packages.

It runs the referee's interpreter, whose environment held everything the referee installs: a submitted
bot's build imported numpy, scipy and SQLAlchemy there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from rage_referee.bot_python import bot_python

from tests.conftest import require, require_command

SDK = ["rage_sdk", "rage_sdk.examples", "rage_sdk.examples.heuristic_bot", "grpc", "grpc_health.v1.health"]
SDK += ["google.protobuf", "pydantic"]
REFEREE = ["rage_referee", "numpy", "scipy", "sqlalchemy", "rich", "typer", "starlette", "uvicorn", "jinja2"]
RANDOM = Path(__file__).resolve().parents[2] / "examples" / "random_bot.py"
FOUND = (  # a module's file, not only its name (a checkout's example bots are links to its examples/)
    "import importlib.util as u, os; "
    f"print(*(f'found {{n}}' for n in {SDK + REFEREE!r} if (s := u.find_spec(n)) and os.path.exists(s.origin)),"
    " sep='\\n')"
)


def test_only_the_sdks_distributions_are_shown_inside_the_covered_package_folders() -> None:
    python = bot_python()
    names = {path.name.split("-")[0].lower() for path in python.shown}
    assert {"grpc", "grpc_health", "protobuf", "pydantic", "pydantic_core", "rage_sdk"} <= names
    assert not names & {"numpy", "scipy", "sqlalchemy", "rage_arena", "rich", "typer"}, names
    assert python.covered and all(any(folder in path.parents for folder in python.covered) for path in python.shown)


def test_a_sandboxed_build_imports_the_sdk_and_nothing_of_the_referees(tmp_path: Path) -> None:
    require_command("bwrap", "install bubblewrap (apt-get install bubblewrap)")
    require(os.geteuid() == 0, "root (the sandbox runs each bot as a user of its own)", "run the tests as root")
    tmp_path.chmod(0o755)
    bot = tmp_path / "bot"
    bot.mkdir(mode=0o755)
    (bot / "bot.py").write_bytes(RANDOM.read_bytes())
    build = json.dumps(f'python -c "{FOUND}"')
    (bot / "rage-bot.toml").write_text(f'name = "rnd"\nruntime = "python"\nrun = "python bot.py"\nbuild = {build}\n')
    command = [sys.executable, "-m", "rage_referee", "bot", "build", str(bot), "--versions", str(tmp_path / "v")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    found = [line.split()[1] for line in result.stdout.splitlines() if line.startswith("found ")]
    assert found == SDK, result.stdout
