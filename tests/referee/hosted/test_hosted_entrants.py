"""Entrants are accounts of the hosted referee, and every limit of one counts its bots' tokens too
(in process, on loopback):

- the admin adds, lists and disables entrants, and the entry token signs them up; a disabled
  entrant's token and its bots' are refused;
- one entrant cannot take another's registrations, Watch streams or uploads (idle uploads of one
  leave another's through);
- builds wait in a queue served in turn by entrant, ``build_slots`` at once;
- an entrant's bots share its versions; it deletes one (not one a league pins, nor a bot's only
  one), freeing its place;
- a database made before entrants gets its bots' entrants in place;
- standings name each bot's owner.
"""

from __future__ import annotations

import asyncio
import itertools
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import grpc
import pytest
from rage_referee.hosted import events, registry
from rage_referee.hosted import submissions as hosted_submissions
from rage_referee.hosted.addresses import LOOPBACK, AllowList, callable_address
from rage_referee.hosted.auth import token_hash
from rage_referee.hosted.build_queue import BuildQueue
from rage_referee.hosted.contest import Contest
from rage_referee.hosted.errors import ResourceExhausted
from rage_referee.hosted.messages import standings
from rage_referee.hosted.registry import LeagueStatus
from rage_referee.hosted.standings import Table
from rage_referee.league.ratings import RatingRow
from rage_referee.report.live import bound_port, start_http
from rage_referee.submissions.pack import pack
from rage_sdk.pb import referee_pb2 as pb

from tests.helpers.hosted import ipv6_loopback, pack_as
from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, Referee, bot_folder, run

EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
PROMPTLY = 10.0
PORTS = itertools.count(9)


def unserved() -> str:
    """A loopback address nobody serves, given to no bot before (one address holds one bot)."""
    return f"127.0.0.1:{next(PORTS)}"


async def add_entrant(hosted: Referee, name: str) -> str:
    """A new entrant's token."""
    reply = await hosted.call("AddEntrant", pb.AddEntrantRequest(name=name))
    assert reply.entrant.name == name and not reply.entrant.disabled
    return str(reply.token)


async def register(hosted: Referee, name: str, token: str) -> str:
    """A bot registered at an address of its own nobody serves; its token."""
    reply = await hosted.call("RegisterBot", pb.RegisterBotRequest(name=name, address=unserved()), token)
    return str(reply.token)


async def refusal(hosted: Referee, method: str, request: object, token: str) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await hosted.call(method, request, token)
    return info.value.code(), info.value.details() or ""


# --------------------------------------------------------------------------- accounts


def test_the_admin_adds_lists_and_disables_entrants_whose_tokens_are_then_refused(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        carol = await add_entrant(hosted, "carol")
        bot = await register(hosted, "c1", carol)
        assert await refusal(hosted, "AddEntrant", pb.AddEntrantRequest(name="carol"), ADMIN) == (
            grpc.StatusCode.ALREADY_EXISTS,
            "name: an entrant named 'carol' exists already",
        )
        assert (await refusal(hosted, "AddEntrant", pb.AddEntrantRequest(name="dave"), carol))[0] is (
            grpc.StatusCode.PERMISSION_DENIED
        )
        listed = await hosted.call("ListEntrants", pb.ListEntrantsRequest())
        assert [(entrant.name, entrant.bots, entrant.disabled) for entrant in listed.entrants] == [
            ("entry", 0, False),
            ("carol", 1, False),
        ]
        disabled = await hosted.call("DisableEntrant", pb.EntrantRequest(name="carol"))
        assert disabled.disabled
        for token in (carol, bot):
            assert await refusal(hosted, "ListBots", pb.ListBotsRequest(), token) == (
                grpc.StatusCode.UNAUTHENTICATED,
                "authorization: entrant 'carol' is disabled",
            )
        await hosted.call("ListBots", pb.ListBotsRequest(), ENTRY)  # another entrant's token still serves

    run(tmp_path, scenario)


def test_an_entrant_name_differing_from_one_taken_only_in_case_or_width_is_taken(tmp_path: Path) -> None:
    """``Ann`` was a second entrant beside ``ann`` (and ``Entry`` beside the entry token's ``entry``): names the
    standings and pages show alike, and an entrant signing up could pass for another."""

    async def scenario(hosted: Referee) -> None:
        await add_entrant(hosted, "ann")
        hosted.contest.registry.add_entrant("\uff22\uff45\uff41", token_hash("bea-token-0123456789"))  # fullwidth Bea
        for name, method, token, taken in [
            ("Ann", "AddEntrant", ADMIN, "ann"),
            ("ANN", "SignUp", ENTRY, "ann"),
            ("Entry", "SignUp", ENTRY, "entry"),
            ("bea", "AddEntrant", ADMIN, "\uff22\uff45\uff41"),
        ]:
            assert await refusal(hosted, method, pb.AddEntrantRequest(name=name), token) == (
                grpc.StatusCode.ALREADY_EXISTS,
                f"name: an entrant named {taken!r} exists already, the same name as {name!r} "
                "(names are compared without case or width)",
            )
        listed = await hosted.call("ListEntrants", pb.ListEntrantsRequest())
        assert [entrant.name for entrant in listed.entrants] == ["entry", "ann", "\uff22\uff45\uff41"]

    run(tmp_path, scenario)


def test_the_entry_token_signs_up_entrants_of_their_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry, "MAX_BOTS_PER_ENTRANT", 1)
    monkeypatch.setattr(registry, "MAX_ENTRANTS", 3)

    async def scenario(hosted: Referee) -> None:
        shared = await register(hosted, "shared", ENTRY)
        # A bot the entry token registered is its own token's: it signed entrants up as the entry token does.
        assert await refusal(hosted, "SignUp", pb.AddEntrantRequest(name="dan"), shared) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "only the entry token (or the admin token) may sign up an entrant",
        )
        signed = await hosted.call("SignUp", pb.AddEntrantRequest(name="erin"), ENTRY)
        await register(hosted, "e1", signed.token)  # its own allowance, not the entry token's
        assert (await refusal(hosted, "SignUp", pb.AddEntrantRequest(name="fay"), signed.token))[0] is (
            grpc.StatusCode.PERMISSION_DENIED
        )
        await hosted.call("SignUp", pb.AddEntrantRequest(name="gus"), ENTRY)
        assert await refusal(hosted, "SignUp", pb.AddEntrantRequest(name="hal"), ENTRY) == (
            EXHAUSTED,
            "the referee holds 3 entrants already",
        )
        await add_entrant(hosted, "ivy")  # the organizer adds past it

    run(tmp_path, scenario)


def test_a_bot_name_differing_from_one_taken_only_in_case_is_taken(tmp_path: Path) -> None:
    """Bob registered ``Rnd`` beside Alice's ``rnd``: bots the standings and pages show
    alike to a reader, one passing for the other."""

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        await register(hosted, "rnd", alice)
        for name in ("Rnd", "RND"):  # a name of other characters than ASCII is refused as such
            request = pb.RegisterBotRequest(name=name, address=unserved())
            assert await refusal(hosted, "RegisterBot", request, bob) == (
                grpc.StatusCode.ALREADY_EXISTS,
                f"name: a bot named 'rnd' is registered already, the same name as {name!r} "
                "(names are compared without case or width)",
            )
        listed = await hosted.call("ListBots", pb.ListBotsRequest(), bob)
        assert [bot.name for bot in listed.bots] == ["rnd"]

    run(tmp_path, scenario)


def test_one_entrant_cannot_take_another_entrants_registrations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(registry, "MAX_BOTS_PER_ENTRANT", 2)

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        for name in ("a1", "a2"):
            await register(hosted, name, alice)
        request = pb.RegisterBotRequest(name="a3", address=unserved())
        assert await refusal(hosted, "RegisterBot", request, alice) == (
            EXHAUSTED,
            "entrant 'alice' has 2 bots, the most one entrant may: ask the organizer",
        )
        await register(hosted, "b1", bob)
        listed = await hosted.call("ListBots", pb.ListBotsRequest(), bob)
        assert {bot.name: bot.entrant for bot in listed.bots} == {"a1": "alice", "a2": "alice", "b1": "bob"}

    run(tmp_path, scenario)


def test_an_entrants_bots_tokens_share_its_watch_streams(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(events, "MAX_WATCHERS_PER_ENTRANT", 3)

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        a1, a2 = await register(hosted, "a1", alice), await register(hosted, "a2", alice)
        await register(hosted, "b1", bob)
        league = 'name = "cup"\nbots = ["a1", "a2", "b1"]\nplayers = 3\ngames = 6\n[ruleset]\npreset = "amigo"\n'
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=league))
        streams = []

        async def watch(token: str) -> grpc.StatusCode:
            stream = hosted.stub.Watch(pb.WatchRequest(league="cup"), metadata=hosted.as_(token), timeout=30)
            streams.append(stream)
            try:
                await stream.read()
            except grpc.aio.AioRpcError as error:
                return error.code()
            return grpc.StatusCode.OK

        assert [await watch(token) for token in (alice, a1, a2, a2, a1)] == [grpc.StatusCode.OK] * 3 + [EXHAUSTED] * 2
        assert await watch(bob) is grpc.StatusCode.OK
        for stream in streams:
            stream.cancel()

    run(tmp_path, scenario)


def test_idle_uploads_of_one_entrant_leave_another_entrants_upload_through(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_UPLOADS", 4)
    monkeypatch.setattr(hosted_submissions, "CHUNK_SECONDS", 60.0)  # the idle ones stay to the end
    code = pack_as(bot_folder(tmp_path / "bot"), "b1")

    async def nothing() -> AsyncIterator[pb.SubmitBotChunk]:
        await asyncio.Event().wait()
        yield pb.SubmitBotChunk()

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        tokens = [await register(hosted, f"a{number}", alice) for number in range(2)]
        idle = [hosted.stub.SubmitBot(nothing(), metadata=hosted.as_(token)) for token in tokens for _ in range(2)]
        waiting = {asyncio.ensure_future(call.code()) for call in idle}
        done, waiting = await asyncio.wait(waiting, timeout=PROMPTLY, return_when=asyncio.FIRST_COMPLETED)
        if len(done) < 2:
            more, waiting = await asyncio.wait(waiting, timeout=PROMPTLY, return_when=asyncio.FIRST_COMPLETED)
            done |= more
        assert [task.result() for task in done] == [EXHAUSTED] * 2 and len(waiting) == 2
        refused = [call for call in idle if call.done()]
        assert [await call.details() for call in refused] == [
            "entrant 'alice' has 2 uploads under way already; finish one first"
        ] * 2
        reply = await hosted.submit("b1", code, bob)
        assert reply.version.build == pb.BUILD_STATE_OK and reply.bot.entrant == "bob"
        for call in idle:
            call.cancel()
        await asyncio.wait(waiting)

    run(tmp_path, scenario)


def test_a_bot_at_the_referees_own_address_however_written_is_refused(tmp_path: Path) -> None:
    """A bot registered at the referee's own port (a slip for the bot's) was taken: each of its games then
    called the referee's service for a bot's, and failed."""

    async def scenario(hosted: Referee) -> None:
        port = hosted.port
        written = [f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}", f"127.0.0.1:00{port}"]
        written += [f"[::ffff:127.0.0.1]:{port}", f"127.0.0.2:{port}"]
        written += [f"[::1]:{port}", f"[0:0::1]:{port}"] if ipv6_loopback() else []
        token = await register(hosted, "moved", ENTRY)
        for address in written:
            said = f"address: {address} is this referee's own address: give the one your bot serves on"
            request = pb.RegisterBotRequest(name="self", address=address)
            assert await refusal(hosted, "RegisterBot", request, ENTRY) == (grpc.StatusCode.INVALID_ARGUMENT, said)
            update = pb.UpdateBotRequest(name="moved", address=address)
            assert await refusal(hosted, "UpdateBot", update, token) == (grpc.StatusCode.INVALID_ARGUMENT, said)
        assert [bot.name for bot in (await hosted.call("ListBots", pb.ListBotsRequest())).bots] == ["moved"]
        await hosted.call("RegisterBot", pb.RegisterBotRequest(name="next", address=f"127.0.0.1:{port % 65535 + 1}"))

        server, stopped = await start_http(hosted.contest, 0, "127.0.0.1")  # its pages' port: taken before
        try:
            for address in (f"127.0.0.1:{bound_port(server)}", f"localhost:0{bound_port(server)}"):
                said = f"address: {address} is this referee's own address: give the one your bot serves on"
                request = pb.RegisterBotRequest(name="pages", address=address)
                assert await refusal(hosted, "RegisterBot", request, ENTRY) == (grpc.StatusCode.INVALID_ARGUMENT, said)
        finally:
            server.should_exit = True
            hosted.contest.hub.shutdown()
            await asyncio.wait_for(stopped, 10)

    run(tmp_path, scenario)


def test_a_host_name_the_referee_allows_is_called_at_its_port_without_leading_zeros() -> None:
    """An allowed host name was called as written, so localhost:050050 was another seat than localhost:50050."""
    assert asyncio.run(callable_address("LocalHost:050050", AllowList.parse(["localhost"]))) == "LocalHost:50050"


# --------------------------------------------------------------------------- builds

BUILD = (
    "import sys, time\n"
    "from pathlib import Path\n"
    "log = Path(Path('log-path.txt').read_text())\n"  # a build names no path outside its folder
    "log.write_text((log.read_text() if log.exists() else '') + f'start {sys.argv[1]}\\n')\n"
    "time.sleep(0.4)\n"
    "log.write_text(log.read_text() + f'end {sys.argv[1]}\\n')\n"
)


def logged_build(folder: Path, name: str, log: Path) -> bytes:
    """A bot whose build (unsandboxed) writes its start and end to ``log``, 0.4 s apart."""
    manifest = f'name = "{name}"\nruntime = "python"\nrun = "python bot.py"\nbuild = "python build.py {name}"\n'
    bot = bot_folder(folder / name, manifest)
    (bot / "build.py").write_text(BUILD)
    (bot / "log-path.txt").write_text(str(log))
    return pack(bot)


def test_builds_are_served_in_turn_by_entrant(tmp_path: Path) -> None:
    log = tmp_path / "builds.log"
    a1, a2, b1 = (logged_build(tmp_path, name, log) for name in ("a1", "a2", "b1"))

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        queue = hosted.contest.submissions.builds
        first = asyncio.ensure_future(hosted.submit("a1", a1, alice))
        while not log.exists():
            await asyncio.sleep(0.02)
        second = asyncio.ensure_future(hosted.submit("a2", a2, alice))
        while queue.waiting < 1:
            await asyncio.sleep(0.02)
        await asyncio.gather(first, second, hosted.submit("b1", b1, bob))

    run(tmp_path, scenario)
    # alice's second build queued first, but bob's goes before it: alice had the last turn
    assert log.read_text().splitlines() == ["start a1", "end a1", "start b1", "end b1", "start a2", "end a2"]


def test_a_build_queue_runs_its_slots_at_once_and_bounds_each_entrants_builds() -> None:
    async def scenario() -> tuple[list[str], int]:
        queue, order, running, most = BuildQueue(2), [], 0, 0

        async def build(holder: str, name: str) -> None:
            nonlocal running, most
            async with queue.slot(holder):
                running += 1
                most = max(most, running)
                order.append(f"start {name}")
                await asyncio.sleep(0.05)
                order.append(f"end {name}")
                running -= 1

        tasks = [asyncio.ensure_future(build(*names)) for names in [("a", "a1"), ("a", "a2"), ("b", "b1")]]
        await asyncio.sleep(0.01)
        assert queue.waiting == 1
        with pytest.raises(ResourceExhausted, match="this token has 2 builds queued already"):
            async with queue.slot("a"):
                pass
        await asyncio.gather(*tasks)
        return order, most

    order, most = asyncio.run(scenario())
    assert most == 2 and order[:2] == ["start a1", "start a2"] and order.index("end a1") < order.index("start b1")


# --------------------------------------------------------------------------- versions


def test_deleting_a_version_frees_its_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_VERSIONS", 2)
    folder = bot_folder(tmp_path / "bot")

    def version(number: int) -> bytes:
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + f"\n# version {number}\n")
        return pack(folder)

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        first = await hosted.submit("rnd", version(1), alice)
        await hosted.submit("rnd", version(2), first.token)
        third = version(3)
        assert await hosted.refusal("rnd", third, first.token) == (
            EXHAUSTED,
            "name: bot 'rnd' keeps 2 versions, the most a bot may: delete one first",
        )
        short = first.version.version.removeprefix("sha256:")[:16]
        request = pb.DeleteVersionRequest(name="rnd", version=short)
        assert (await refusal(hosted, "DeleteVersion", request, bob))[0] is grpc.StatusCode.PERMISSION_DENIED
        stored = len(hosted.stored())
        kept = await hosted.call("DeleteVersion", request, alice)
        assert len(kept.versions) == 1 and kept.versions[0].version != first.version.version
        assert len(hosted.stored()) < stored  # its files are gone
        listed = await hosted.call("ListEntrants", pb.ListEntrantsRequest())
        assert {entrant.name: entrant.versions for entrant in listed.entrants} == {"entry": 0, "alice": 1, "bob": 0}
        again = await hosted.submit("rnd", third, first.token)
        assert again.version.current

    run(tmp_path, scenario)


def test_an_entrants_bots_share_its_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hosted_submissions, "MAX_ENTRANT_VERSIONS", 2)
    code = {name: pack_as(bot_folder(tmp_path / name), name) for name in ("x", "y", "z", "house")}

    async def scenario(hosted: Referee) -> None:
        alice, bob = await add_entrant(hosted, "alice"), await add_entrant(hosted, "bob")
        for name in ("x", "y"):
            await hosted.submit(name, code[name], alice)
        assert await hosted.refusal("z", code["z"], alice) == (
            EXHAUSTED,
            "name: the entrant's bots keep 2 versions, the most one entrant's may: delete one first",
        )
        await hosted.submit("z", code["z"], bob)
        await hosted.submit("house", code["house"], ADMIN)  # the organizer's bots belong to no entrant

    run(tmp_path, scenario)


def test_a_version_a_league_pins_and_a_bots_only_version_are_kept(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path / "bot")

    async def submit(hosted: Referee, token: str, change: str) -> pb.SubmitBotReply:
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + change)
        return await hosted.submit("rnd", pack(folder), token)

    def deleting(reply: pb.SubmitBotReply) -> pb.DeleteVersionRequest:
        return pb.DeleteVersionRequest(name="rnd", version=reply.version.version)

    async def scenario(hosted: Referee) -> None:
        first = await submit(hosted, ENTRY, "")
        assert (await refusal(hosted, "DeleteVersion", deleting(first), first.token))[1] == (
            f"version: {first.bot.version} is bot 'rnd''s only version: submit another first"
        )
        second, third = await submit(hosted, first.token, "\n# 2\n"), await submit(hosted, first.token, "\n# 3\n")
        contest = hosted.contest
        definition = 'name = "cup"\nplayers = 3\ngames = 6\nbots = ["rnd"]\n[ruleset]\npreset = "amigo"\n'
        league = contest.registry.add_league("cup", 7, definition, ["rnd"], "{}", 3, 6)
        contest.submissions.versions.pin(league.league_id, {"rnd": first.version.version})
        assert await refusal(hosted, "DeleteVersion", deleting(first), first.token) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            f"version: {first.bot.version} of bot 'rnd' is played by league 'cup': it is kept while it plays there",
        )
        kept = await hosted.call("DeleteVersion", deleting(second), first.token)  # the league plays another one
        assert [version.version for version in kept.versions] == [third.version.version, first.version.version]
        contest.registry.set_status("cup", LeagueStatus.FINISHED)  # a league over pins it no more
        kept = await hosted.call("DeleteVersion", deleting(first), first.token)
        assert [version.version for version in kept.versions] == [third.version.version]

    run(tmp_path, scenario)


# --------------------------------------------------------------------------- the database, standings


def test_a_database_made_before_entrants_gives_the_entry_tokens_bots_to_entrant_entry(tmp_path: Path) -> None:
    path = tmp_path / "contest.sqlite"
    with sqlite3.connect(path) as database:
        database.executescript(
            "CREATE TABLE hosted_bots (id INTEGER PRIMARY KEY, name VARCHAR(64) UNIQUE, address VARCHAR(300), "
            "owner VARCHAR(200), token_hash VARCHAR(64) UNIQUE, registered_at DATETIME, updated_at DATETIME);"
            "CREATE TABLE hosted_bot_holders (bot_id INTEGER PRIMARY KEY, holder VARCHAR(64));"
            "INSERT INTO hosted_bots VALUES (1, 'theirs', '127.0.0.1:9', '', 'h1', '2026-01-01', '2026-01-01');"
            f"INSERT INTO hosted_bots VALUES (2, 'house', '127.0.0.1:9', '', '{token_hash('house-token-0123456789')}',"
            " '2026-01-01', '2026-01-01');"
            "INSERT INTO hosted_bot_holders VALUES (1, 'entry-hash');"
        )
    database.close()
    contest = Contest.open(f"sqlite:///{path}", ADMIN, ENTRY, AllowList.parse(LOOPBACK), tmp_path / "submissions")
    try:
        assert [(bot.name, bot.entrant) for bot in contest.registry.bots()] == [("theirs", "entry"), ("house", "")]
        caller = contest.auth.identify([("authorization", "Bearer house-token-0123456789")])
        assert (caller.bot, caller.entrant) == ("house", "")
    finally:
        contest.close()
    again = Contest.open(f"sqlite:///{path}", ADMIN, ENTRY, AllowList.parse(LOOPBACK), tmp_path / "submissions")
    assert [entrant.bots for entrant in again.registry.entrants()] == [("theirs",)]
    again.close()


def test_standings_name_each_bots_owner() -> None:
    rows = [RatingRow(name, 1500.0, 1400.0, 1600.0, None, 6, 10.0, 2.0, 0.5, 0, 20.0) for name in ("a1", "house")]
    table = standings("cup", Table(6, rows, intervals=True), owners={"a1": "alice"})
    assert [(row.bot, row.owner) for row in table.rows] == [("a1", "alice"), ("house", "")]
