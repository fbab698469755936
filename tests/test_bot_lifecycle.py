"""Bots the referee launches do not outlive it, even when it is killed outright."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from rage_sdk.server import PARENT_ENV

ROOT = Path(__file__).resolve().parents[1]


def launched_by(pid: int) -> list[int]:
    """Processes whose environment names ``pid`` as the referee that launched them."""
    marker = f"{PARENT_ENV}={pid}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        if marker in environ.split(b"\0"):
            found.append(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Alive and not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_launched_bots_stop_when_the_referee_is_killed(tmp_path: Path) -> None:
    bot = f"python {ROOT / 'examples' / 'random_bot.py'}"
    referee = subprocess.Popen(
        [sys.executable, "-m", "rage_referee", "match", "--games", "500", "--logs", str(tmp_path),
         "--bot", f"a={bot}", "--bot", f"b={bot}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while len(launched_by(referee.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        bots = launched_by(referee.pid)
        assert len(bots) == 2, "the referee did not launch its two bots"
        referee.send_signal(signal.SIGKILL)
        referee.wait(10)
        deadline = time.monotonic() + 10
        while any(map(running, bots)) and time.monotonic() < deadline:
            time.sleep(0.1)
        alive = [pid for pid in bots if running(pid)]
        assert not alive, f"bots still running after the referee died: {alive}"
    finally:
        if referee.poll() is None:
            referee.kill()
        for pid in launched_by(referee.pid):
            if running(pid):
                os.kill(pid, signal.SIGKILL)
