"""``rage referee submit`` and ``builds`` against a referee served by ``rage referee serve --no-sandbox``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from rage_referee.cli import app
from rage_referee.seats import free_port, stop_group
from test_hosted_submissions import MANIFEST, bot_folder
from test_referee_server import launch, wait_serving
from typer.testing import CliRunner

RAGE = str(Path(sys.executable).with_name("rage"))
ENTRY = "entry-token-0123456789abcdef"
runner = CliRunner()

pytestmark = pytest.mark.slow


def test_an_entrant_submits_a_folder_and_sees_its_builds(tmp_path: Path) -> None:
    (tmp_path / "entry-token").write_text(ENTRY + "\n")
    port = free_port()
    log = tmp_path / "referee.log"
    argv = [RAGE, "referee", "serve", "--port", str(port), "--host", "127.0.0.1", "--db", str(tmp_path / "r.sqlite")]
    server = launch([*argv, "--entry-token-file", str(tmp_path / "entry-token"), "--no-sandbox"], log)
    try:
        wait_serving(f"127.0.0.1:{port}", server, log)
        assert "submitted bots: no sandbox: the referee was started with --no-sandbox" in log.read_text()
        folder = bot_folder(tmp_path / "bot", MANIFEST.replace("compileall -q .", "compileall ."))  # a log
        where = ["--referee", f"127.0.0.1:{port}"]
        submitted = runner.invoke(app, ["referee", "submit", str(folder), "--name", "rnd", "--token", ENTRY, *where])
        assert submitted.exit_code == 0, submitted.output
        token = submitted.stdout.strip()  # alone: TOKEN=$(rage referee submit ...) captured the build's log too
        assert len(token) > 20 and "\n" not in token and " " not in token
        assert (
            "build: built" in submitted.stderr and "Listing" in submitted.stderr and "rnd: version " in submitted.stderr
        )
        builds = runner.invoke(app, ["referee", "builds", "rnd", "--token", token, "--logs", *where])
        assert builds.exit_code == 0, builds.output
        assert "built: built" in builds.stdout and "(current)" in builds.stdout
        again = runner.invoke(app, ["referee", "submit", str(folder), "--name", "rnd", "--token", ENTRY, *where])
        assert again.exit_code == 1
        assert "refused (ALREADY_EXISTS): name: a bot named 'rnd' exists" in again.output
        missing = runner.invoke(app, ["referee", "submit", str(tmp_path / "nowhere.txt"), "--name", "x", *where])
        assert missing.exit_code == 2 and "expected a folder, a .tar.gz or a .zip" in missing.output
    finally:
        stop_group(server, 5.0)


def test_rage_bot_build_no_sandbox_says_so(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    done = subprocess.run(
        [RAGE, "bot", "build", str(folder), "--versions", str(tmp_path / "versions"), "--no-sandbox"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "--no-sandbox: the build runs without the sandbox" in done.stderr
    assert "build: built" in done.stdout + done.stderr
    assert list((tmp_path / "versions").rglob("__pycache__"))  # compileall ran in the bot's folder
