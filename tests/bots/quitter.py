"""Answers AFTER decisions (the first legal action), then exits with code 3 on the next request, mid-game.

Each decision first checks that the view knows the whole game so far (every finished round and
trick), which a relaunched process learns from the events the referee repeats to it; it writes
``view out of step`` to stderr when not.

With ``--linger S`` it first shuts down every socket it has (its streams and its listening port go
away at once, as when a process dies) and only exits S seconds later: a process that has stopped
serving but is not gone yet.

    python tests/bots/quitter.py [--after N] [--linger S] --port N
"""

from __future__ import annotations

import argparse
import contextlib
import os
import socket
import sys
import time

from rage_sdk import Bot, Play, SeatView
from rage_sdk.server import main

AFTER = 15
EXIT_CODE = 3


def shut_sockets() -> None:
    """Shut down and close every socket of this process."""
    for name in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            if os.readlink(f"/proc/self/fd/{name}").startswith("socket:"):
                sock = socket.socket(fileno=int(name))
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()


class QuitterBot(Bot):
    name = "quitter"
    version = "1"
    after = AFTER
    linger = 0.0
    answered = 0
    """Decisions answered by this process, over all its games."""

    def _count(self, view: SeatView) -> None:
        if len(view.results) != view.round_number - 1 or len(view.tricks) != sum(view.tricks_won):
            print(f"view out of step: {len(view.results)} results, {len(view.tricks)} tricks", file=sys.stderr)
        if QuitterBot.answered >= QuitterBot.after:
            if QuitterBot.linger:
                shut_sockets()
                time.sleep(QuitterBot.linger)
            os._exit(EXIT_CODE)
        QuitterBot.answered += 1

    def bid(self, view: SeatView) -> int:
        self._count(view)
        return view.legal_bids[0]

    def play(self, view: SeatView) -> Play:
        self._count(view)
        return view.legal_plays[0]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--after", type=int, default=AFTER)
    parser.add_argument("--linger", type=float, default=0.0)
    known, rest = parser.parse_known_args()
    QuitterBot.after, QuitterBot.linger = known.after, known.linger
    main(QuitterBot, rest)
