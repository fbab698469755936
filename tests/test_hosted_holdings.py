"""What one caller of the hosted referee may hold: an entry token registers a bounded share of the bots."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest
from rage_referee.hosted import registry
from rage_referee.submissions.pack import pack
from rage_sdk.pb import referee_pb2 as pb
from test_hosted_submissions import ADMIN, ENTRY, Referee, bot_folder, run


def test_an_entry_token_registers_its_share_of_bots_and_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "MAX_BOTS_PER_TOKEN", 2, raising=False)
    code = pack(bot_folder(tmp_path / "bot"))

    async def scenario(hosted: Referee) -> None:
        for name in ("one", "two"):
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name=name, address="127.0.0.1:5"), ENTRY)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name="three", address="127.0.0.1:5"), ENTRY)
        assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert refused.value.details() == "this token has registered 2 bots, the most one token may: ask the organizer"
        assert await hosted.refusal("three", code) == (grpc.StatusCode.RESOURCE_EXHAUSTED, refused.value.details())
        assert not hosted.stored()  # refused before the upload was received or built
        await hosted.call("RegisterBot", pb.RegisterBotRequest(name="house", address="127.0.0.1:5"), ADMIN)
        listed = await hosted.call("ListBots", pb.ListBotsRequest(), ENTRY)
        assert [bot.name for bot in listed.bots] == ["one", "two", "house"]

    run(tmp_path, scenario)
