"""Stopping a command: SIGINT (Ctrl-C) and SIGTERM alike stop it as Ctrl-C does in a terminal. A match prints
the games it finished and reveals its deal key, a league or a test says every finished game is stored, to
resume; asyncio's own handling of SIGINT cancels a command's games cleanly.

The default handler ended a command on SIGTERM in silence, and a command started in the background by a
script (which ignores SIGINT there) could not be interrupted. The servers (``rage referee serve``,
``rage bot serve``) handle both signals themselves in their event loop.
"""

from __future__ import annotations

import signal
from types import FrameType


def _as_ctrl_c(_: int, frame: FrameType | None) -> None:
    """Do what SIGINT does now: asyncio's handler while a command's loop runs, else KeyboardInterrupt."""
    on_sigint = signal.getsignal(signal.SIGINT)
    if callable(on_sigint):
        on_sigint(signal.SIGINT, frame)
    else:
        raise KeyboardInterrupt


def stop_on_signals_as_on_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.default_int_handler)  # asyncio.run takes it over only from this one
    signal.signal(signal.SIGTERM, _as_ctrl_c)
