"""Files that are not regular files, for the tests of readers that must refuse them rather than wait."""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")
PATIENCE = 5.0
"""Seconds a refusal may take; a reader that waits on a FIFO takes for ever."""


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def without_waiting(call: Callable[[], T], *fifos: Path) -> T:
    """``call()``'s result, checked to come within :data:`PATIENCE` with nobody writing to ``fifos``.

    A call that waits on one is let go (each FIFO is opened for writing and closed, so its reader meets the
    end) before the test fails, so a failing test ends too.
    """
    outcome: list[T] = []
    worker = threading.Thread(target=lambda: outcome.append(call()), daemon=True)
    worker.start()
    worker.join(PATIENCE)
    if worker.is_alive():
        while worker.is_alive():
            for path in fifos:
                with contextlib.suppress(OSError):  # ENXIO: nobody reads it yet
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
            worker.join(0.1)
        raise AssertionError(f"still waiting on {', '.join(map(str, fifos))} after {PATIENCE} s")
    assert outcome, "the call raised"
    return outcome[0]
