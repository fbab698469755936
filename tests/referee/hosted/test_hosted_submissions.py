"""Hosted submissions, called in process on loopback: SubmitBot and ListVersions.

- an entrant submits a folder (packed) with the entry token: a new bot, its token, a version built;
  the same files again are the same version, changed files a new one (with the bot's own token);
- the caller is checked: no token, an unknown one, another bot's, the entry token on a bot that exists;
- uploads past the size cap are refused while they stream, and a bot's versions and bytes are capped;
- hostile archives (``..``, absolute paths, links out, device files, a zip bomb, bad manifest values)
  are each refused naming the problem, and nothing is stored;
- a referee without the sandbox refuses submissions in one line unless started with ``--no-sandbox``.
"""

from __future__ import annotations

import asyncio
import io
import shutil
import stat
import sys
import tarfile
import zipfile
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from rage_referee.cli import app
from rage_referee.hosted import submissions as hosted_submissions
from rage_referee.hosted.addresses import LOOPBACK, AllowList
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.server import create_server
from rage_referee.hosted.submissions import SandboxPolicy
from rage_referee.sandbox import SandboxError
from rage_referee.submissions import archive
from rage_referee.submissions.pack import chunks, pack
from rage_referee.submissions.store import store_submission
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc

from tests.helpers.cli import runner
from tests.helpers.hosted import pack_as

ADMIN, ENTRY = "admin-token-0123456789", "entry-token-0123456789"
DEADLINE = 60.0
EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
MANIFEST = 'name = "rnd"\nruntime = "python"\nrun = "python bot.py"\nbuild = "python -m compileall -q ."\n'


def bot_folder(folder: Path, manifest: str = MANIFEST) -> Path:
    """The random example bot with its manifest, as an entrant would submit it."""
    folder.mkdir(mode=0o755, parents=True)
    shutil.copy(EXAMPLES / "random_bot.py", folder / "bot.py")
    (folder / "rage-bot.toml").write_text(manifest)
    return folder


@dataclass
class Referee:
    contest: Contest
    stub: Any
    root: Path
    port: int
    """The referee's port on 127.0.0.1."""

    @staticmethod
    def as_(token: str) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {token}")]

    async def submit(self, name: str, data: bytes, token: str = ENTRY, fmt: str = "tar.gz") -> pb.SubmitBotReply:
        """Upload ``data`` as ``rage referee submit`` does, by gRPC's blocking client (in a thread, the referee
        serving on this loop); its refusal raised as the asyncio client's error. The asyncio client reported a
        refusal that came while it still wrote as INTERNAL ("Internal error from Core") now and then: gRPC's
        issue 36066, a write failing after the server's status overwrote it."""

        def requests() -> Iterator[pb.SubmitBotChunk]:
            for number, piece in enumerate(chunks(data)):
                yield (
                    pb.SubmitBotChunk(name=name, format=fmt, data=piece)
                    if number == 0
                    else pb.SubmitBotChunk(data=piece)
                )

        def upload() -> pb.SubmitBotReply:
            with grpc.insecure_channel(f"127.0.0.1:{self.port}") as channel:
                stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
                try:
                    reply: pb.SubmitBotReply = stub.SubmitBot(requests(), metadata=self.as_(token), timeout=DEADLINE)
                except grpc.RpcError as error:
                    failed: Any = error  # a grpc.Call too
                    code, details = failed.code(), failed.details()
                    raise grpc.aio.AioRpcError(code, grpc.aio.Metadata(), grpc.aio.Metadata(), details) from None
                return reply

        return await asyncio.to_thread(upload)

    async def refusal(self, name: str, data: bytes, token: str = ENTRY, fmt: str = "tar.gz") -> tuple[Any, str]:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await self.submit(name, data, token, fmt)
        return info.value.code(), info.value.details() or ""

    async def call(self, method: str, request: Any, token: str = ADMIN) -> Any:
        return await getattr(self.stub, method)(request, metadata=self.as_(token), timeout=DEADLINE)

    def stored(self) -> list[Path]:
        """Every file kept under the submissions folder but the scratch folder of uploads."""
        return [path for path in self.root.rglob("*") if ".uploads" not in path.parts and path.is_file()]


@asynccontextmanager
async def referee(folder: Path, policy: SandboxPolicy) -> AsyncIterator[Referee]:
    root = folder / "submissions"
    allow = AllowList.parse(LOOPBACK)
    contest = Contest.open(f"sqlite:///{folder / 'contest.sqlite'}", ADMIN, ENTRY, allow, root, policy)
    server, port = await create_server(contest, 0, "127.0.0.1")
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = referee_pb2_grpc.RefereeStub(channel)  # type: ignore[no-untyped-call]
            yield Referee(contest, stub, root, port)
    finally:
        await contest.leagues.close(1.0)
        contest.hub.shutdown()
        await server.stop(0)
        contest.close()


def run(tmp_path: Path, scenario: Callable[[Referee], Awaitable[None]], policy: SandboxPolicy | None = None) -> None:
    async def main() -> None:
        async with referee(tmp_path, policy or SandboxPolicy(None)) as hosted:
            await asyncio.wait_for(scenario(hosted), DEADLINE * 3)

    asyncio.run(main())


# --------------------------------------------------------------------------- submitting


def test_a_submission_is_a_new_bot_and_a_resubmission_a_new_version(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        first = await hosted.submit("rnd", pack(folder))
        assert first.token and first.bot.name == "rnd" and first.bot.address == ""
        assert first.version.build == pb.BUILD_STATE_OK and first.version.build_detail == "built"
        assert first.version.current and first.bot.version == first.version.version.removeprefix("sha256:")[:16]
        again = await hosted.submit("rnd", pack(folder), token=first.token)
        assert again.version.version == first.version.version and not again.token
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# a change\n")
        second = await hosted.submit("rnd", pack(folder), token=first.token)
        assert second.version.version != first.version.version and second.version.current
        listed = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), ENTRY)
        assert [v.version for v in listed.versions] == [second.version.version, first.version.version]
        assert [v.current for v in listed.versions] == [True, False]
        bots = await hosted.call("ListBots", pb.ListBotsRequest(), ENTRY)
        assert [(bot.name, bot.version) for bot in bots.bots] == [("rnd", second.bot.version)]

    run(tmp_path, scenario)


def test_a_failed_build_is_reported_with_its_log_escaped(tmp_path: Path) -> None:
    build = "build = 'python -c \"import sys; print(chr(27) + 20 * chr(65)); sys.exit(3)\"'\n"
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', build))

    async def scenario(hosted: Referee) -> None:
        other = await hosted.submit("other", pack_as(bot_folder(tmp_path / "other"), "other"))
        reply = await hosted.submit("rnd", pack(folder))
        assert reply.version.build == pb.BUILD_STATE_FAILED and reply.version.build_detail == "exit code 3"
        assert "A" * 20 in reply.version.build_log and "\x1b" not in reply.version.build_log
        assert not reply.version.current and reply.bot.version == ""
        listed = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), other.token)
        assert listed.versions[0].build_log == "" and listed.versions[0].build_detail == "exit code 3"
        mine = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), reply.token)
        assert "A" * 20 in mine.versions[0].build_log

    run(tmp_path, scenario)


def test_a_build_log_is_its_entrants_to_read_and_another_entrant_is_told_it_is_withheld(tmp_path: Path) -> None:
    """``rage referee builds BOT --logs`` with the bot's entrant's token printed no log, and said nothing: the log
    was the bot's own token's and the admin's alone, though its entrant owns the bot (as on the pages)."""
    build = "build = 'python -c \"import sys; print(20 * chr(65)); sys.exit(3)\"'\n"
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', build))

    async def scenario(hosted: Referee) -> None:
        ann = (await hosted.call("AddEntrant", pb.AddEntrantRequest(name="ann"))).token
        bea = (await hosted.call("AddEntrant", pb.AddEntrantRequest(name="bea"))).token
        assert (await hosted.submit("rnd", pack(folder), ann)).version.build == pb.BUILD_STATE_FAILED
        mine = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), ann)
        assert "A" * 20 in mine.versions[0].build_log and not mine.logs_withheld
        theirs = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), bea)
        assert theirs.versions[0].build_log == "" and theirs.logs_withheld

        def builds(token: str) -> Any:
            where = ["--referee", f"127.0.0.1:{hosted.port}", "--token", token]
            return runner.invoke(app, ["referee", "builds", "rnd", "--logs", *where])

        shown = await asyncio.to_thread(builds, ann)
        assert shown.exit_code == 0 and "FAILED: exit code 3" in shown.stdout and "A" * 20 in shown.stdout
        withheld = await asyncio.to_thread(builds, bea)
        assert withheld.exit_code == 1 and "FAILED: exit code 3" in withheld.stdout and "A" * 20 not in withheld.stdout
        assert (
            withheld.stderr
            == "--logs: only the token of bot rnd, its entrant's or the admin's may read its build logs\n"
        )

    run(tmp_path, scenario)


FAILING_BUILDS = {
    "exits 3": ("build = 'python -c \"raise SystemExit(3)\"'\n", "exit code 3"),
    "no such program": ('build = "no-such-builder ."\n', "cannot run no-such-builder: No such file or directory"),
}


@pytest.mark.parametrize("case", list(FAILING_BUILDS))
def test_a_bot_whose_first_build_fails_is_kept_and_rage_says_how_to_submit_it_again(tmp_path: Path, case: str) -> None:
    """A first build whose program was not there was an INTERNAL error and the bot was gone; one that failed
    ended in exit 1 after the bot's token, with no word that the bot was kept nor how to go on."""
    build, detail = FAILING_BUILDS[case]
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', build))

    async def scenario(hosted: Referee) -> None:
        where = ["--referee", f"127.0.0.1:{hosted.port}"]

        def submit(token: str) -> Any:
            return runner.invoke(app, ["referee", "submit", str(folder), "--name", "rnd", "--token", token, *where])

        failed = await asyncio.to_thread(submit, ENTRY)
        assert failed.exit_code == 1, failed.output
        token = failed.stdout.strip()
        assert len(token) > 20 and "\n" not in token
        assert f"build: {detail} (" in failed.stderr
        assert failed.stderr.strip().splitlines()[-1] == (
            f"rnd is kept, though its first build failed: see why with 'rage referee builds rnd --logs --token "
            f"{token} --referee 127.0.0.1:{hosted.port}', then submit it again with 'rage referee submit {folder} "
            f"--name rnd --token {token} --referee 127.0.0.1:{hosted.port}'"
        )
        assert [bot.name for bot in (await hosted.call("ListBots", pb.ListBotsRequest())).bots] == ["rnd"]
        (folder / "rage-bot.toml").write_text(MANIFEST)
        again = await asyncio.to_thread(submit, token)
        assert again.exit_code == 0 and "build: built" in again.stderr, again.output

    run(tmp_path, scenario)


def test_the_shared_entry_token_reads_no_bots_build_log_and_each_bots_own_token_does(tmp_path: Path) -> None:
    """Whoever held the shared entry token owned every bot submitted with it: one could read another's build
    logs (its seat views and logs on the pages too), where the docs give that token the public pages alone."""
    build = "build = 'python -c \"import sys; print(20 * chr(65)); sys.exit(3)\"'\n"
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', build))

    async def scenario(hosted: Referee) -> None:
        submitted = await hosted.submit("rnd", pack(folder), ENTRY)
        assert submitted.version.build == pb.BUILD_STATE_FAILED
        shared = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), ENTRY)
        assert shared.versions[0].build_log == "" and shared.logs_withheld
        own = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), submitted.token)
        assert "A" * 20 in own.versions[0].build_log and not own.logs_withheld

    run(tmp_path, scenario)


FAILING_BIG = (
    "build = 'python -c \"import os; open(chr(98), chr(119)).write(chr(120) * 3_000_000); "
    "[os.mkdir(str(n)) for n in range(300)]; raise SystemExit(1)\"'\n"
)


def test_a_failed_build_leaves_nothing_and_counts_nothing(tmp_path: Path) -> None:
    # a failed build's files stayed on disk, counted against the bot for good (260 MiB of an oversized one)
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', FAILING_BIG))

    async def scenario(hosted: Referee) -> None:
        token = ENTRY
        for _ in range(2):  # the same archive again: its outcome is kept, its files are not
            reply = await hosted.submit("rnd", pack(folder), token=token)
            token = reply.token or token
            assert (reply.version.build_detail, reply.version.bytes) == ("exit code 1", 0)
            assert sorted(path.name[16:] for path in hosted.stored()) == [".build.json", ".build.log"]
            assert not [path for path in hosted.root.rglob("*") if path.is_dir() and path.name.isdigit()]
        listed = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"))
        assert [version.bytes for version in listed.versions] == [0]

    run(tmp_path, scenario)


def test_a_versions_bytes_are_what_it_takes_on_disk(tmp_path: Path) -> None:
    # only regular files' bytes were counted: 100,000 empty folders were "1,181 bytes"
    folders = "build = 'python -c \"import os; [os.mkdir(str(n)) for n in range(1000)]\"'\n"
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', folders))

    async def scenario(hosted: Referee) -> None:
        reply = await hosted.submit("rnd", pack(folder))
        assert reply.version.build_detail == "built" and reply.version.bytes > 1000 * 256
        assert hosted.contest.submissions.versions.usage("rnd") == (1, reply.version.bytes)

    run(tmp_path, scenario)


def test_a_build_that_cannot_start_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the sandbox refusing a build gave INTERNAL and left the unpacked upload on disk, counted nowhere
    def refused(*_: object, **__: object) -> None:
        raise SandboxError("/srv/contest/ref.sqlite holds a bot's code and the league's database")

    monkeypatch.setattr(hosted_submissions, "build", refused)
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        code, details = await hosted.refusal("rnd", pack(folder))
        assert (code, details) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "data: the build cannot start in the sandbox on this machine",
        )
        assert [path for path in hosted.root.rglob("*") if ".uploads" not in path.parts and path.name != "rnd"] == []

    run(tmp_path, scenario)


def test_a_version_half_built_when_the_referee_stopped_is_built_afresh(tmp_path: Path) -> None:
    # after a kill -9 mid-build, the half-built folder (its bot.py changed) was taken as built
    folder = bot_folder(tmp_path / "bot")
    archive_file = tmp_path / "bot.tar.gz"
    archive_file.write_bytes(pack(folder))
    half = store_submission(archive_file, tmp_path / "submissions" / "rnd")
    (half.folder / "bot.py").write_text("print('tampered')\n")

    async def scenario(hosted: Referee) -> None:
        assert not half.folder.exists()  # removed as the referee started
        reply = await hosted.submit("rnd", pack(folder))
        assert reply.version.build_detail == "built" and reply.version.version == half.version
        assert (half.folder / "bot.py").read_text() == (folder / "bot.py").read_text()

    run(tmp_path, scenario)


def test_the_caller_is_checked(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        assert (await hosted.refusal("rnd", pack(folder), token="no-such-token-0123456789"))[
            0
        ] is grpc.StatusCode.UNAUTHENTICATED
        first = await hosted.submit("rnd", pack(folder))
        other = await hosted.submit("other", pack_as(folder, "other"))
        code, details = await hosted.refusal("rnd", pack(folder))
        assert code is grpc.StatusCode.ALREADY_EXISTS and "with its own token" in details
        code, details = await hosted.refusal("rnd", pack(folder), token=other.token)
        assert code is grpc.StatusCode.PERMISSION_DENIED and "'rnd'" in details
        listed = await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"), first.token)
        assert len(listed.versions) == 1

    run(tmp_path, scenario)


def test_an_upload_past_the_cap_is_refused_while_it_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_UPLOAD_BYTES", 256 * 1024)
    data = b"\0" * (4 * 1024 * 1024)
    read: list[int] = []  # the bytes of each message the referee read after the first
    next_chunk = hosted_submissions.next_chunk

    async def counted(messages: Any, deadline: float | None = None) -> Any:
        chunk = await next_chunk(messages, deadline)
        read.append(0 if chunk is None else len(chunk.data))
        return chunk

    monkeypatch.setattr(hosted_submissions, "next_chunk", counted)

    async def scenario(hosted: Referee) -> None:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await hosted.submit("big", data)
        assert info.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
        assert info.value.details() == "data: the upload passed 262,144 bytes, the most it may have now: refused"
        assert 0 < sum(read) < len(data) // 2, sum(read)  # refused on the way, not after the whole upload
        assert hosted.stored() == []
        assert not (await hosted.call("ListBots", pb.ListBotsRequest())).bots

    run(tmp_path, scenario)


def test_a_bots_versions_and_bytes_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_VERSIONS", 2)
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', ""))

    async def scenario(hosted: Referee) -> None:
        first = await hosted.submit("rnd", pack(folder))
        (folder / "a.txt").write_text("a")
        await hosted.submit("rnd", pack(folder), token=first.token)
        (folder / "b.txt").write_text("b")
        code, details = await hosted.refusal("rnd", pack(folder), token=first.token)
        assert (code, details) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "name: bot 'rnd' keeps 2 versions, the most a bot may: delete one first",
        )
        monkeypatch.setattr(hosted_submissions, "MAX_VERSIONS", 10)
        used = sum(v.bytes for v in (await hosted.call("ListVersions", pb.ListVersionsRequest(name="rnd"))).versions)
        monkeypatch.setattr(hosted_submissions, "MAX_BOT_BYTES", used + 5000)
        (folder / "big.txt").write_text("x" * 10_000)
        before = hosted.stored()
        code, details = await hosted.refusal("rnd", pack(folder), token=first.token)
        assert code is grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("data: this version holds")
        assert hosted.stored() == before

    run(tmp_path, scenario)


# --------------------------------------------------------------------------- hostile uploads


def tar_with(*members: tuple[tarfile.TarInfo, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for info, data in members:
            info.size = len(data) if info.isfile() else 0
            tar.addfile(info, io.BytesIO(data) if info.isfile() else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, link
    return info


def good(manifest: str = MANIFEST) -> list[tuple[tarfile.TarInfo, bytes]]:
    return [(member("rage-bot.toml"), manifest.encode()), (member("bot.py"), b"print(1)\n")]


def zip_bomb() -> bytes:
    """A few KiB that unpack to 8 MiB, past the cap the tests set (the real cap is 200 MiB)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("rage-bot.toml", MANIFEST)
        with archive.open("bomb.bin", "w") as bomb:
            for _ in range(8):
                bomb.write(bytes(1024 * 1024))
    return buffer.getvalue()


def zip_link() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("rage-bot.toml", MANIFEST)
        link = zipfile.ZipInfo("passwd")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        archive.writestr(link, "/etc/passwd")
    return buffer.getvalue()


HOSTILE: dict[str, tuple[str, Callable[[], bytes], str]] = {
    "dotdot": ("tar.gz", lambda: tar_with(*good(), (member("../evil.py"), b"x")), "'../evil.py': a path with '..'"),
    "absolute": ("tar.gz", lambda: tar_with(*good(), (member("/etc/evil"), b"x")), "'/etc/evil': an absolute path"),
    "link out": (
        "tar.gz",
        lambda: tar_with(*good(), (member("passwd", tarfile.SYMTYPE, "/etc/passwd"), b"")),
        "'passwd': a link out of the archive",
    ),
    "link through links": (  # each link inside, the second out through the first
        "tar.gz",
        lambda: tar_with(
            *good(), (member("up", tarfile.SYMTYPE, "."), b""), (member("x", tarfile.SYMTYPE, "up/up/.."), b"")
        ),
        "'x': a link out of the archive, to 'up/up/..'",  # refused on its names, before anything is written
    ),
    "hard link": (
        "tar.gz",
        lambda: tar_with(*good(), (member("hard", tarfile.LNKTYPE, "bot.py"), b"")),
        "'hard': a hard link",
    ),
    "device": (
        "tar.gz",
        lambda: tar_with(*good(), (member("null", tarfile.CHRTYPE), b"")),
        "'null': a device file",
    ),
    "zip bomb": ("zip", zip_bomb, "'bomb.bin': unpacks past 4 MiB in all: refused"),
    "zip link": ("zip", zip_link, "'passwd': a link or special file"),
    "bad manifest": (
        "tar.gz",
        lambda: tar_with(*good(MANIFEST.replace('"python bot.py"', '"python bot.py --port {port}"'))),
        "rage-bot.toml: run: a submitted bot listens on a Unix socket",
    ),
    "bad name": (
        "tar.gz",
        lambda: tar_with(*good(MANIFEST.replace('"rnd"', '"../rnd"'))),
        "rage-bot.toml: name: letters, digits",
    ),
    "no manifest": ("tar.gz", lambda: tar_with((member("bot.py"), b"print(1)\n")), "rage-bot.toml: missing"),
    "build outside": (
        "tar.gz",
        lambda: tar_with(*good(MANIFEST.replace("-q .", "-q /tmp/shared.py"))),
        "rage-bot.toml: build: names '/tmp/shared.py', outside the bot's folder",
    ),
    "nested manifest": (
        "tar.gz",
        lambda: tar_with(*good(MANIFEST + "x = " + "[" * 30_000 + "]" * 30_000 + "\n")),
        "rage-bot.toml: arrays or tables nested too deeply",
    ),
    "not an archive": ("zip", lambda: b"PK not really", "upload.zip: not a readable .zip"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_upload_is_refused_naming_the_problem_and_nothing_is_stored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    monkeypatch.setattr(archive, "MAX_BYTES", 4 * 1024 * 1024)
    fmt, data, message = HOSTILE[case]

    async def scenario(hosted: Referee) -> None:
        code, details = await hosted.refusal("evil", data(), fmt=fmt)
        assert code is grpc.StatusCode.INVALID_ARGUMENT
        assert details.startswith("data: ") and message in details, details
        assert "\n" not in details and str(tmp_path) not in details  # no path of the referee's
        assert hosted.stored() == [] and not (hosted.root / "evil").exists()  # not even an empty folder
        assert not (await hosted.call("ListBots", pb.ListBotsRequest())).bots

    run(tmp_path, scenario)


def test_a_bot_whose_manifest_names_another_bot_is_refused_naming_both(tmp_path: Path) -> None:
    """A folder whose rage-bot.toml named rnd was taken as bot other (kept under other/rnd/), with either token."""
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        code, details = await hosted.refusal("other", pack(folder))
        assert (code, details) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "name: 'other', but rage-bot.toml names the bot 'rnd': submit it as rnd, or name it other there",
        )
        assert hosted.stored() == [] and not (hosted.root / "other").exists()
        assert not (await hosted.call("ListBots", pb.ListBotsRequest())).bots
        first = await hosted.submit("other", pack_as(folder, "other"))
        code, details = await hosted.refusal("other", pack(folder), token=first.token)
        assert code is grpc.StatusCode.INVALID_ARGUMENT and "'other', but rage-bot.toml names the bot 'rnd'" in details
        assert len((await hosted.call("ListVersions", pb.ListVersionsRequest(name="other"))).versions) == 1

    run(tmp_path, scenario)


def test_an_unknown_format_or_an_empty_upload_is_refused(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        code, details = await hosted.refusal("evil", b"x", fmt="rar")
        assert (code, details) == (grpc.StatusCode.INVALID_ARGUMENT, "format: 'rar': expected 'tar.gz' or 'zip'")
        code, details = await hosted.refusal("evil", b"")
        assert (code, details) == (grpc.StatusCode.INVALID_ARGUMENT, "data: empty: send the archive's bytes")

    run(tmp_path, scenario)


def test_without_the_sandbox_submissions_are_refused_in_one_line(tmp_path: Path) -> None:
    policy = SandboxPolicy(None, "the sandbox needs bwrap: install it (apt-get install bubblewrap)")
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        code, details = await hosted.refusal("rnd", pack(folder))
        assert code is grpc.StatusCode.FAILED_PRECONDITION
        assert details.startswith("the referee runs submitted bots only in the sandbox, which this machine cannot give")
        assert "--no-sandbox" in details and "\n" not in details
        assert hosted.stored() == []

    run(tmp_path, scenario, policy)


def test_chunks_cover_the_data() -> None:
    data = bytes(range(256)) * 1000
    pieces: Iterator[bytes] = chunks(data)
    assert b"".join(pieces) == data and list(chunks(b"")) == [b""]


def test_every_bots_versions_together_are_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = bot_folder(tmp_path / "bot", MANIFEST.replace('build = "python -m compileall -q ."\n', ""))

    async def scenario(hosted: Referee) -> None:
        await hosted.submit("one", pack_as(folder, "one"))
        monkeypatch.setattr(hosted_submissions, "MAX_TOTAL_BYTES", hosted.contest.submissions.versions.total_bytes())
        code, details = await hosted.refusal("two", pack_as(folder, "two"))
        assert code is grpc.StatusCode.RESOURCE_EXHAUSTED and details.startswith("the referee keeps ")
        assert [bot.name for bot in (await hosted.call("ListBots", pb.ListBotsRequest())).bots] == ["one"]

    run(tmp_path, scenario)


def test_a_submitted_bot_has_no_address_to_change(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")

    async def scenario(hosted: Referee) -> None:
        first = await hosted.submit("rnd", pack(folder))
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await hosted.call("UpdateBot", pb.UpdateBotRequest(name="rnd", address="127.0.0.1:9"), first.token)
        assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert info.value.details() == "name: bot 'rnd' is submitted code the referee runs: it has no address"

    run(tmp_path, scenario)


def test_a_league_whose_pinned_version_is_gone_from_disk_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")
    league = 'name = "cup"\nplayers = 2\ngames = 2\nbots = ["a", "b"]\n[ruleset]\npreset = "amigo"\nrounds = [1]\n'

    async def scenario(hosted: Referee) -> None:
        await hosted.submit("a", pack_as(folder, "a"))
        await hosted.submit("b", pack_as(folder, "b"))
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=league))
        for manifest in (hosted.root / "a").rglob("rage-bot.toml"):
            manifest.unlink()
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
        assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert (info.value.details() or "").startswith("bot 'a': version ")
        assert "cannot be read: rage-bot.toml: missing" in (info.value.details() or "")

    run(tmp_path, scenario)


@pytest.mark.slow
def test_a_submitted_bot_that_cannot_start_is_faulted_without_the_referees_paths(tmp_path: Path) -> None:
    # the forfeit detail named the bot's log by its path on the referee's machine, .../submissions/.logs/...,
    # and held the last lines the bot wrote (its own output, a traceback naming the referee's folders)
    folder = bot_folder(tmp_path / "bot")
    dead = bot_folder(tmp_path / "dead", MANIFEST.replace('"rnd"', '"dead"'))
    (dead / "bot.py").write_text("print('the bot wrote this for its owner', flush=True)\nraise SystemExit(3)\n")
    league = (
        'name = "cup"\nplayers = 2\ngames = 2\nseed = 3\nbots = ["rnd", "dead"]\n'
        '[ruleset]\npreset = "amigo"\nrounds = [1]\n'
    )

    async def scenario(hosted: Referee) -> None:
        await hosted.submit("rnd", pack(folder))
        await hosted.submit("dead", pack(dead))
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=league))
        await hosted.call("StartLeague", pb.LeagueRequest(league="cup"))
        while (await hosted.call("ListLeagues", pb.ListLeaguesRequest())).leagues[0].games_done < 2:
            await asyncio.sleep(0.1)
        shown = [
            (await hosted.call("GetRecord", pb.GetRecordRequest(league="cup", game=game))).record for game in range(2)
        ]
        assert not [text for text in shown if str(hosted.root) in text or ".logs" in text]
        assert "exited with code 3 before serving; see its log (dead.log on the referee)" in shown[0]
        assert not [text for text in shown if "wrote this" in text], (
            "a bot's output is for its owner, not every entrant"
        )
        assert not [text for text in shown if sys.executable in text], "the referee's interpreter"
        logs = (hosted.root / ".logs" / "cup").rglob("dead.log")
        assert any("the bot wrote this for its owner" in log.read_text() for log in logs)

    run(tmp_path, scenario)
