"""A launched bot's stdout and stderr, drained from a pipe into its log: at most a cap a run, the rest counted.

The bot never writes its log itself, in the sandbox or out of it: it writes to a pipe the referee
reads as fast as the bot fills it, so a bot that floods never blocks on a full pipe, and never fills
the disk. What comes past :data:`~rage_referee.limits.MAX_BOT_LOG_BYTES` in one run is read and
dropped, and the run's section of the log ends in one line saying how much was cut.
"""

from __future__ import annotations

import array
import contextlib
import fcntl
import os
import select
import termios
import threading
import time
from typing import IO

from ..limits import MAX_BOT_LOG_BYTES

CHUNK = 64 * 1024
POLL_SECONDS = 0.25
"""How often a drain with nothing to read looks whether it was told to stop."""
SETTLE_SECONDS = 1.0
"""How long a drain whose bot has ended waits for the rest of its output (a child may still hold the pipe)."""
CATCH_UP_SECONDS = 0.5
"""The longest a game's start or end waits for the bot's output so far to reach its log."""


def cut_note(cut: int, limit: int) -> bytes:
    """The line that ends a run's section when its output passed ``limit`` bytes."""
    return f"=== the referee cut {cut:,} bytes of this run's output: a run keeps its first {limit:,} bytes\n".encode()


class LogDrain(threading.Thread):
    """Copies what a bot writes to its pipe into its log, up to ``limit`` bytes; the rest is counted and dropped.

    Started before the bot is launched with :attr:`writer` as its stdout and stderr; :meth:`finish` once it
    has ended.
    """

    def __init__(self, log: IO[bytes], limit: int = MAX_BOT_LOG_BYTES) -> None:
        super().__init__(daemon=True, name="bot-log")
        self.log = log
        self.limit = limit
        self.kept = 0
        self.cut = 0
        self._reader, self.writer = os.pipe()
        """The end the bot writes to; the referee closes its copy once the bot holds it (then -1)."""
        self._stopping = threading.Event()
        self._last = b"\n"
        self._read = 0
        """Bytes read from the pipe; :attr:`_handled` of them kept or cut (the rest being written)."""
        self._handled = 0
        self._reading = threading.Lock()

    def run(self) -> None:
        try:
            while not self._stopping.is_set():
                if not select.select([self._reader], [], [], POLL_SECONDS)[0]:
                    continue
                with self._reading:  # the pipe was ready: this read does not wait
                    chunk = os.read(self._reader, CHUNK)
                    self._read += len(chunk)
                if not chunk:
                    break
                self._keep(chunk)
                self._handled += len(chunk)
        finally:
            os.close(self._reader)
            if self.cut:
                self._write(b"" if self._last == b"\n" else b"\n")
                self._write(cut_note(self.cut, self.limit))

    def _keep(self, chunk: bytes) -> None:
        room = max(0, self.limit - self.kept)
        kept = chunk[:room]
        if kept and self._write(kept):
            self.kept += len(kept)
            self._last = kept[-1:]
        else:
            kept = b""
        self.cut += len(chunk) - len(kept)

    def _write(self, data: bytes) -> bool:
        """Append ``data`` to the log; a log that cannot take it (a full disk) loses it, the drain goes on."""
        try:
            self.log.write(data)
            self.log.flush()
        except (OSError, ValueError):
            return False
        return True

    def catch_up(self, timeout: float = CATCH_UP_SECONDS) -> None:
        """Wait, at most ``timeout`` seconds, until what the bot has written so far is in its log (where a game's
        part of it starts or ends), however slowly this thread is scheduled; what it writes meanwhile is not
        waited for."""
        unread = array.array("i", [0])
        with self._reading:
            try:
                fcntl.ioctl(self._reader, termios.FIONREAD, unread)
            except OSError:  # the drain has ended, its pipe closed
                return
            target = self._read + unread[0]
        deadline = time.monotonic() + timeout
        while self._handled < target and self.is_alive() and time.monotonic() < deadline:
            time.sleep(0.001)

    def close_writer(self) -> None:
        """Close the referee's copy of the bot's end, once the bot has its own."""
        writer, self.writer = self.writer, -1
        if writer >= 0:
            with contextlib.suppress(OSError):
                os.close(writer)

    def finish(self, timeout: float = SETTLE_SECONDS) -> None:
        """Wait up to ``timeout`` seconds for the bot's output to end (every writer gone), then stop reading."""
        self.close_writer()
        if self.is_alive():
            self.join(timeout)
        self._stopping.set()
        if self.is_alive():
            self.join()
