"""``--listen unix:PATH``: a bot served on a Unix socket, and the referee launching and calling one."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rage_referee.seats import BotSpec, RemoteConnection, wait_healthy
from rage_sdk.examples.random_bot import RandomBot
from rage_sdk.server import main

from tests.helpers.cli import rage as cli_rage

ROOT = Path(__file__).resolve().parents[3]
RANDOM_BOT = ROOT / "examples" / "random_bot.py"


@pytest.fixture
def socket_dir() -> Iterator[Path]:
    """A short directory: a Unix socket's path must fit in 108 bytes, and pytest's tmp_path may not."""
    with tempfile.TemporaryDirectory(prefix="rage-test-") as path:
        yield Path(path)


def rage(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rage_referee", *args], capture_output=True, text=True, cwd=ROOT, timeout=120
    )


def test_a_bot_file_serves_on_a_unix_socket(socket_dir: Path) -> None:
    address = f"unix:{socket_dir}/bot.sock"
    bot = subprocess.Popen([sys.executable, str(RANDOM_BOT), "--listen", address], stderr=subprocess.PIPE, text=True)
    try:

        async def greet() -> str:
            deadline = time.monotonic() + 20
            while not await wait_healthy(address, timeout=1.0):
                assert time.monotonic() < deadline, "the bot did not serve on its socket"
            connection = RemoteConnection(address)
            identity = await connection.open()
            await connection.close()
            return identity.name

        assert asyncio.run(greet())
    finally:
        bot.terminate()
        bot.wait(10)
    assert bot.stderr is not None and f"serving on {address}" in bot.stderr.read()


async def serving(address: str, seconds: float = 20) -> bool:
    """Whether a bot serves at ``address`` within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await wait_healthy(address, timeout=1.0):
            return True
        await asyncio.sleep(0.05)
    return False


def test_a_unix_address_is_a_bot_serving_there() -> None:
    assert BotSpec.of("a", "unix:/run/bot.sock").kind == "address"
    assert BotSpec.of("a", "python bot.py --listen {listen}").kind == "command"


@pytest.mark.slow
def test_the_referee_launches_a_bot_on_a_socket_and_calls_one_there(socket_dir: Path) -> None:
    address = f"unix:{socket_dir}/served.sock"
    served = subprocess.Popen(
        [sys.executable, "-m", "rage_referee", "bot", "serve", f"{RANDOM_BOT}:RandomBot", "--listen", address],
        stderr=subprocess.DEVNULL,
    )
    try:
        assert asyncio.run(serving(address)), "the served bot did not serve on its socket"
        result = rage(
            "match", "--games", "2", "--logs", str(socket_dir / "logs"),
            "--bot", f"launched=python {RANDOM_BOT} --listen {{listen}}", "--bot", f"served={address}",
        )  # fmt: skip
    finally:
        served.terminate()
        served.wait(10)
    assert result.returncode == 0, result.stderr
    assert "launched" in result.stdout and "served" in result.stdout
    assert "serving on unix:" in (socket_dir / "logs" / "launched.log").read_text()


@pytest.mark.parametrize("value", ["127.0.0.1:5000", "unix:"])
def test_listen_must_name_a_unix_socket(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    result = cli_rage("bot", "serve", f"{RANDOM_BOT}:RandomBot", "--listen", value)
    assert result.exit_code == 2
    assert "--listen" in result.stderr and "unix:PATH" in result.stderr
    with pytest.raises(SystemExit) as file:  # python random_bot.py --listen VALUE
        main(RandomBot, ["--listen", value])
    assert file.value.code == 2 and "unix:PATH" in capsys.readouterr().err
