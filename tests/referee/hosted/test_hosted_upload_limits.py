"""Uploads under way are limited, so no caller can hold the referee's calls or scratch disk with
uploads it never finishes (in process, on loopback):

- an upload whose next message does not come in time, or that takes too long in all, is refused, and
  its scratch file removed;
- an entrant (its token and its bots' together) has at most a few uploads under way, and the referee
  a few in all: one more is refused at once, in one line; one entrant's idle uploads leave another's through.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.hosted import submissions as hosted_submissions
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.submissions import SandboxPolicy
from rage_sdk.pb import referee_pb2 as pb

from tests.helpers.hosted import serving

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
PROMPTLY = 10.0


class Upload:
    """A SubmitBot call that sends its first message, then nothing until :meth:`finish` (if ever)."""

    def __init__(self, stub: Any, name: str, token: str = ENTRY) -> None:
        self.sent_first = asyncio.Event()
        self.finished = asyncio.Event()
        metadata = [("authorization", f"Bearer {token}")]
        self.call = stub.SubmitBot(self._messages(name), metadata=metadata, timeout=60)

    async def _messages(self, name: str) -> AsyncIterator[pb.SubmitBotChunk]:
        yield pb.SubmitBotChunk(name=name, format="tar.gz", data=b"\0" * 1024)
        self.sent_first.set()
        await self.finished.wait()

    async def refusal(self) -> tuple[grpc.StatusCode, str]:
        """The call's refusal, which must come within :data:`PROMPTLY` seconds."""
        try:
            await asyncio.wait_for(self.call, PROMPTLY)
        except grpc.aio.AioRpcError as error:
            return error.code(), error.details() or ""
        except TimeoutError:
            raise AssertionError(f"the upload was still under way after {PROMPTLY:g} s") from None
        raise AssertionError("the upload was accepted")


def run(tmp_path: Path, scenario: Any) -> None:
    async def main() -> None:
        root = tmp_path / "submissions"
        url = f"sqlite:///{tmp_path / 'contest.sqlite'}"
        contest = Contest.open(url, ADMIN, ENTRY, AllowList.parse(LOOPBACK), root, SandboxPolicy(None))
        async with serving(contest) as stub:
            await asyncio.wait_for(scenario(stub, root), PROMPTLY * 3)

    asyncio.run(main())


def test_an_upload_that_stalls_is_refused_and_its_scratch_file_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosted_submissions, "CHUNK_SECONDS", 0.5)

    async def scenario(stub: Any, root: Path) -> None:
        upload = Upload(stub, "slow")
        code, details = await upload.refusal()
        assert code is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert details == "data: no message came for 0.5 s: the upload is refused"
        assert not any(path.is_file() for path in (root / ".uploads").rglob("*"))
        upload.finished.set()

    run(tmp_path, scenario)


def test_uploads_under_way_are_capped_per_entrant_and_in_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_UPLOADS_PER_ENTRANT", 2)
    monkeypatch.setattr(hosted_submissions, "MAX_UPLOADS", 3)

    async def scenario(stub: Any, root: Path) -> None:
        held = [Upload(stub, f"held{number}") for number in range(2)]
        for upload in held:
            await asyncio.wait_for(upload.sent_first.wait(), PROMPTLY)
        await asyncio.sleep(0.2)  # the referee is reading them
        code, details = await Upload(stub, "one-more").refusal()
        assert (code, details) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "entrant 'entry' has 2 uploads under way already; finish one first",
        )
        third = Upload(stub, "admins", ADMIN)
        await asyncio.wait_for(third.sent_first.wait(), PROMPTLY)
        await asyncio.sleep(0.2)
        code, details = await Upload(stub, "another", ADMIN).refusal()
        assert (code, details) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "the referee receives 3 uploads already; try again later",
        )
        for upload in [*held, third]:
            upload.finished.set()
            upload.call.cancel()

    run(tmp_path, scenario)


def test_an_upload_that_trickles_is_refused_when_its_time_is_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosted_submissions, "UPLOAD_SECONDS", 1.0, raising=False)

    async def trickle() -> AsyncIterator[pb.SubmitBotChunk]:
        yield pb.SubmitBotChunk(name="trickle", format="tar.gz", data=b"\0")
        # a byte every 0.4 s, well within each message's wait, for 100 s; no sooner, so its next byte is not in
        # flight as the refusal comes (gRPC then reports the write's failure, INTERNAL, and not the refusal)
        for _ in range(250):
            await asyncio.sleep(0.4)
            yield pb.SubmitBotChunk(data=b"\0")

    async def scenario(stub: Any, root: Path) -> None:
        call = stub.SubmitBot(trickle(), metadata=[("authorization", f"Bearer {ENTRY}")], timeout=60)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await asyncio.wait_for(call, PROMPTLY)
        assert refused.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert refused.value.details() == "data: the upload took 1 s, the most it may: refused"
        assert not any(path.is_file() for path in (root / ".uploads").rglob("*"))

    run(tmp_path, scenario)
