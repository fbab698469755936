"""Running coroutines together, all or none: the first failure cancels the others."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


async def all_or_cancel(coroutines: list[Coroutine[Any, Any, T]]) -> list[T]:
    """Their results in order; when one fails, the others are cancelled (and awaited) before the error goes on.

    So no game still in progress ends later against bots already being stopped, or is stored after
    the run was refused.
    """
    tasks = [asyncio.ensure_future(coroutine) for coroutine in coroutines]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
