"""Growing waits between calls to a bot at an address that does not answer: a bot that is down is not
charged its faults within milliseconds, and has time to come back."""

from __future__ import annotations

import asyncio
import contextlib
import time

FIRST_WAIT = 0.5
"""Seconds before the call after the first that failed."""
LONGEST_WAIT = 15.0
"""Seconds between two calls at most: each wait doubles the last, up to this."""


class Backoff:
    """When a bot that did not answer may be called again; a call it answers, or a new address, starts afresh."""

    def __init__(self) -> None:
        self.failures = 0
        """Calls that failed in a row."""
        self._until = 0.0
        self._woken = asyncio.Event()

    @property
    def wait_seconds(self) -> float:
        """How long the next call waits after the last failed one."""
        return 0.0 if not self.failures else min(LONGEST_WAIT, FIRST_WAIT * 2 ** (self.failures - 1))

    def failed(self) -> None:
        self.failures += 1
        self._until = time.monotonic() + self.wait_seconds

    def reset(self) -> None:
        """The bot answered, or moved: its next call goes at once (a call waiting now goes too)."""
        self.failures, self._until = 0, 0.0
        self._woken.set()
        self._woken = asyncio.Event()

    async def wait(self) -> None:
        """Until the next call may go."""
        left = self._until - time.monotonic()
        if left > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), left)
