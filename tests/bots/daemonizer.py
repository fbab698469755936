"""Leaves a daemon behind before it serves: a process in a session of its own (``setsid``), with an empty
environment (no mark of the launch), deaf to SIGTERM, sleeping for an hour; its id written to PIDFILE. Then
plays the first legal action. With ``--orphan`` the daemon's parent exits at once (``setsid --fork``): the
daemon is no child of the bot.

    python tests/bots/daemonizer.py PIDFILE [--orphan] --port N
"""

from __future__ import annotations

import subprocess
import sys

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

DAEMON = (
    "import os, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "open(sys.argv[1], 'w').write(f'{os.getpid()}\\n'); time.sleep(3600)"
)


class DaemonizerBot(Bot):
    name = "daemonizer"
    version = "1"

    def bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        return view.legal_plays[0]


if __name__ == "__main__":
    pidfile, rest = sys.argv[1], sys.argv[2:]
    orphan = "--orphan" in rest
    setsid = ["/usr/bin/setsid", *(["--fork"] if orphan else [])]
    quiet = subprocess.DEVNULL
    subprocess.Popen([*setsid, sys.executable, "-c", DAEMON, pidfile], env={}, stdin=quiet, stdout=quiet, stderr=quiet)
    main(DaemonizerBot, [part for part in rest if part != "--orphan"])
