"""The referee's command and served bots set Python's garbage collector for serving games."""

from __future__ import annotations

import subprocess
import sys

from rage_sdk.gc_tuning import YOUNG_THRESHOLD

REPORT = "import gc; print(gc.get_threshold()[0], gc.get_freeze_count() > 0)"

SERVE_BRIEFLY = """
import asyncio, os, signal
from rage_sdk import Bot
from rage_sdk.server import serve_async

class Quiet(Bot):
    def bid(self, view):
        return view.legal_bids[0]

    def play(self, view):
        return view.legal_plays[0]

async def main():
    asyncio.get_running_loop().call_later(0.5, os.kill, os.getpid(), signal.SIGTERM)
    await serve_async(Quiet, port=0, host="127.0.0.1")

asyncio.run(main())
"""

RAGE_HELP = """
import sys
from rage_referee.cli import main
sys.argv = ["rage", "--help"]
try:
    main()
except SystemExit:
    pass
"""


def run_python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.strip().splitlines()[-1]


def test_python_alone_keeps_its_defaults() -> None:
    assert run_python(REPORT) == "700 False"


def test_a_served_bot_freezes_its_start_up_and_collects_less_often() -> None:
    assert run_python(SERVE_BRIEFLY + REPORT) == f"{YOUNG_THRESHOLD} True"


def test_the_rage_command_freezes_its_start_up_and_collects_less_often() -> None:
    assert run_python(RAGE_HELP + REPORT) == f"{YOUNG_THRESHOLD} True"


def test_tuning_keeps_the_older_generations_thresholds() -> None:
    code = "import gc; gc.set_threshold(700, 7, 3); from rage_sdk.gc_tuning import tune_gc; tune_gc();" + REPORT
    code += "; print(gc.get_threshold())"
    assert run_python(code) == f"({YOUNG_THRESHOLD}, 7, 3)"
