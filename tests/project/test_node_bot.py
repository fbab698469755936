"""The Node.js example bot (``examples/node``), written from ``proto/`` alone, over real gRPC.

Its packages are installed from its lock file (``npm ci``) into a scratch folder that
``NODE_PATH`` points to, so the test leaves nothing in the source tree.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import require_command

ROOT = Path(__file__).resolve().parents[2]
NODE_BOT = ROOT / "examples" / "node"
RAGE = Path(sys.executable).with_name("rage")
HOW = "install Node.js and npm (Debian: apt-get install nodejs npm)"


@pytest.fixture(scope="module")
def node_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment a referee launching the Node.js bot needs: its packages on ``NODE_PATH``."""
    require_command("node", HOW)
    npm = require_command("npm", HOW)
    scratch = tmp_path_factory.mktemp("node")
    for name in ("package.json", "package-lock.json"):
        shutil.copy(NODE_BOT / name, scratch / name)
    install = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=scratch, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stderr[-2000:]
    return {**os.environ, "NODE_PATH": str(scratch / "node_modules")}


def rage(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(RAGE), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_the_node_bot_passes_the_check(node_env: dict[str, str], tmp_path: Path) -> None:
    check = rage("bot", "check", f"node {NODE_BOT / 'bot.js'}", env=node_env, cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "passed every check" in check.stdout
    log = (tmp_path / "logs" / "bot.log").read_text()
    assert "--- game 3 (record game-00003.json, id 48), seat 0 of 4, amigo1985" in log


@pytest.mark.slow
def test_the_node_bot_plays_a_match_without_faults_and_beats_the_simple_bots(
    node_env: dict[str, str], tmp_path: Path
) -> None:
    bots = {
        "node": f"node {NODE_BOT / 'bot.js'}",
        "random": f"{ROOT / 'examples' / 'random_bot.py'}:RandomBot",
        "greedy": f"{ROOT / 'examples' / 'greedy_bot.py'}:GreedyBot",
    }
    args = [f"--bot={name}={target}" for name, target in bots.items()]
    # Public deals (--seed) so the games, and so the figures, are the same on every run.
    command = ["match", *args, "--games", "6", "--ruleset", "fundex", "--seed", "1", "--json"]
    match = rage(*command, env=node_env, cwd=tmp_path)
    assert match.returncode == 0, match.stdout + match.stderr
    figures = json.loads(match.stdout)["bots"]
    assert all(bot["faults"] == 0 for bot in figures.values()), figures
    assert figures["node"]["mean_score"] > max(figures["random"]["mean_score"], figures["greedy"]["mean_score"])


@pytest.mark.slow
def test_the_node_bot_serves_on_a_unix_socket(node_env: dict[str, str], tmp_path: Path) -> None:
    check = rage("bot", "check", f"node {NODE_BOT / 'bot.js'} --listen {{listen}}", env=node_env, cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "passed every check" in check.stdout
    log = (tmp_path / "logs" / "bot.log").read_text()
    assert "--listen unix:" in log and "serving on unix:" in log


def test_the_node_bot_refuses_a_listen_address_that_is_no_unix_socket(node_env: dict[str, str]) -> None:
    done = subprocess.run(
        ["node", str(NODE_BOT / "bot.js"), "--listen", "127.0.0.1:5"],
        env=node_env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert '--listen: expected unix:PATH, not "127.0.0.1:5"' in done.stderr
