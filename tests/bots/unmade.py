"""A bot whose every instance fails to be made (its constructor raises)."""

from __future__ import annotations

from rage_sdk import Bot


class UnmadeBot(Bot):
    name = "unmade"

    def __init__(self) -> None:
        raise RuntimeError("cannot make this bot")
