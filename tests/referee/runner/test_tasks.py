"""Coroutines run all or none: the first failure cancels the rest before it goes on."""

from __future__ import annotations

import asyncio

import pytest
from rage_referee.runner.tasks import all_or_cancel


def test_results_come_in_order() -> None:
    async def after(seconds: float, value: int) -> int:
        await asyncio.sleep(seconds)
        return value

    assert asyncio.run(all_or_cancel([after(0.02, 1), after(0.0, 2), after(0.01, 3)])) == [1, 2, 3]


def test_the_first_failure_cancels_the_others_before_it_goes_on() -> None:
    finished: list[str] = []
    cancelled: list[str] = []

    async def refused() -> None:
        await asyncio.sleep(0.01)
        raise RuntimeError("game 3 is stored already")

    async def slow(name: str) -> None:
        try:
            await asyncio.sleep(5)
            finished.append(name)
        except asyncio.CancelledError:
            cancelled.append(name)
            raise

    async def main() -> None:
        with pytest.raises(RuntimeError, match="stored already"):
            await all_or_cancel([slow("a"), refused(), slow("b")])
        assert sorted(cancelled) == ["a", "b"], "cancelled and awaited before the error came out"
        await asyncio.sleep(0.05)

    asyncio.run(main())
    assert finished == []
