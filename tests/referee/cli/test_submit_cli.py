"""``rage referee submit``, ``builds``, ``version delete``, ``entrant`` and ``signup`` against a referee served by
``rage referee serve --no-sandbox``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rage_referee.cli import app
from rage_referee.seats import free_port, stop_group
from typer.testing import CliRunner

from tests.referee.hosted.test_hosted_submissions import MANIFEST, bot_folder
from tests.referee.test_referee_server import launch, wait_serving

RAGE = str(Path(sys.executable).with_name("rage"))
ENTRY = "entry-token-0123456789abcdef"
ADMIN = "admin-token-0123456789abcdef"
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


def test_the_organizer_adds_an_entrant_that_submits_deletes_a_version_and_is_disabled(tmp_path: Path) -> None:
    (tmp_path / "admin-token").write_text(ADMIN + "\n")
    port = free_port()
    log = tmp_path / "referee.log"
    argv = [RAGE, "referee", "serve", "--port", str(port), "--host", "127.0.0.1", "--db", str(tmp_path / "r.sqlite")]
    server = launch(
        [*argv, "--admin-token-file", str(tmp_path / "admin-token"), "--no-sandbox", "--build-slots", "2"], log
    )

    def rage(*args: str, token: str = ADMIN) -> Any:
        return runner.invoke(app, ["referee", *args, "--token", token, "--referee", f"127.0.0.1:{port}"])

    try:
        wait_serving(f"127.0.0.1:{port}", server, log)
        added = rage("entrant", "add", "alice")
        assert added.exit_code == 0, added.output
        alice = added.stdout.strip().splitlines()[-1]
        folder = bot_folder(tmp_path / "bot")
        submitted = rage("submit", str(folder), "--name", "rnd", token=alice)
        assert submitted.exit_code == 0, submitted.output
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# a change\n")
        bot = submitted.stdout.strip().splitlines()[-1]
        assert rage("submit", str(folder), "--name", "rnd", token=bot).exit_code == 0
        first = rage("builds", "rnd").stdout.strip().splitlines()[-1].split()[0]  # the oldest
        deleted = rage("version", "delete", "rnd", first, token=alice)
        assert deleted.exit_code == 0, deleted.output
        assert deleted.stdout.strip() == f"rnd: version {first} deleted; 1 kept"
        listed = [line.split() for line in rage("entrant", "list").stdout.splitlines()]
        assert listed[0] == ["entry", "active", "0", "bots", "0", "versions", "0", "bytes"]
        assert listed[1][:6] == ["alice", "active", "1", "bots", "1", "versions"]
        disabled = rage("entrant", "disable", "alice")
        assert disabled.stdout.strip() == "alice is disabled: its token and its bots' tokens are refused"
        refused = rage("bots", token=alice)
        assert refused.exit_code == 1
        assert "refused (UNAUTHENTICATED): authorization: entrant 'alice' is disabled" in refused.output
        signed = rage("signup", "erin", token=(tmp_path / "r.entry-token").read_text().strip())
        assert signed.exit_code == 0 and "signed up as erin" in signed.output
        assert rage("bots", token=signed.stdout.strip().splitlines()[-1]).exit_code == 0
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
