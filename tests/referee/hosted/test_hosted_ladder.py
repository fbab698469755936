"""A hosted ladder, called in process on loopback (submitted bots run without the sandbox here):

- a contest file makes a ladder; start, pause, resume and cancel it as a league;
- submitted bots join at any time and play duplicate sets at the matchmaker's tables, owners apart;
- a new version replaces the old one at the tables (the old keeps its rating, retired); a version that
  fails to build leaves the previous one playing, its owner told why in the reply;
- a bot that crashes at every start is forfeited and fails, without dragging the others' ratings;
- the leaderboard (GetStandings) and Watch's ladder events; a contest file with a schedule is refused.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import grpc
import httpx
import pytest
from rage_referee.cli import app
from rage_referee.hosted.definition import IGNORED_KEYS
from rage_referee.hosted.errors import InvalidArgument
from rage_referee.hosted.ladder_definition import NOT_IN_A_CONTEST, ladder_definition, read_ladder
from rage_referee.hosted.ladder_run import ladder_games
from rage_referee.league.bundle import verify_bundle
from rage_referee.league.config import LeagueConfig
from rage_referee.league.store import GameRow
from rage_referee.report.front import Home
from rage_referee.report.live import create_app
from rage_referee.submissions.pack import chunks
from rage_sdk.pb import referee_pb2 as pb
from rage_sdk.pb import referee_pb2_grpc
from sqlalchemy import delete
from sqlalchemy.orm import Session

from tests.helpers.cli import runner
from tests.helpers.hosted import pack_as
from tests.referee.hosted.test_hosted_input import Hosted, definition
from tests.referee.hosted.test_hosted_input import run as run_with_bots
from tests.referee.hosted.test_hosted_submissions import ADMIN, ENTRY, MANIFEST, Referee, bot_folder, run
from tests.referee.hosted.test_hosted_submitted_league import wait_over

CONTEST = """
name = "ladder"
players = 2

[ruleset]
preset = "amigo"
rounds = [1]

[time]
decision_ms = 2000

[ladder]
concurrency = 2
placement_sets = 2
"""
CRASHING = 'name = "crash"\nruntime = "python"\nrun = "python -c \'raise SystemExit(3)\'"\n'
BROKEN = MANIFEST.replace("python -m compileall -q .", "python -c 'raise SystemExit(1)'")


async def submit(hosted: Referee, name: str, folder: Path, owner: str = "", token: str = ENTRY) -> pb.SubmitBotReply:
    data = pack_as(folder, name)

    async def requests() -> AsyncIterator[pb.SubmitBotChunk]:
        for number, piece in enumerate(chunks(data)):
            first = number == 0
            yield pb.SubmitBotChunk(
                name=name if first else "", format="tar.gz" if first else "", owner=owner, data=piece
            )

    reply: pb.SubmitBotReply = await hosted.stub.SubmitBot(requests(), metadata=hosted.as_(token), timeout=120)
    return reply


async def watch(hosted: Referee) -> list[pb.LeagueEvent]:
    """A Watch of the ladder with an entrant's token, to its end."""
    stream = hosted.stub.Watch(pb.WatchRequest(league="ladder"), metadata=hosted.as_(ENTRY))
    return [event async for event in stream]


async def standings(hosted: Referee, token: str = ENTRY) -> pb.Ladder:
    reply = await hosted.call("GetStandings", pb.LeagueRequest(league="ladder"), token)
    assert reply.HasField("ladder")
    return reply.ladder


async def until(hosted: Referee, check: object, timeout: float = 120.0) -> pb.Ladder:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ladder = await standings(hosted)
        if check(ladder):  # type: ignore[operator]
            return ladder
        await asyncio.sleep(0.3)
    raise AssertionError(f"the ladder never got there: {ladder}")


def rows(ladder: pb.Ladder) -> dict[str, pb.LadderRow]:
    return {f"{row.bot}@{row.version}": row for row in ladder.rows}


@pytest.mark.slow
def test_a_ladder_plays_sets_as_bots_join_and_rates_each_version(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        created = await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
        assert created.ladder and created.games_total == 0 and created.deal_commitment
        tokens = {}
        for name, owner in (("ann", "a"), ("bob", "b"), ("cat", "c")):
            tokens[name] = (await submit(hosted, name, bot_folder(tmp_path / name), owner)).token
        crash = bot_folder(tmp_path / "crash", CRASHING)
        await submit(hosted, "crash", crash, "d")
        await hosted.call("StartLeague", pb.LeagueRequest(league="ladder"))
        watched = asyncio.create_task(watch(hosted))
        late = await submit(hosted, "dan", bot_folder(tmp_path / "dan"), "a")  # joins while it runs; ann's owner
        assert late.version.build == pb.BUILD_STATE_OK

        first = await until(hosted, lambda ladder: ladder.sets >= 8 and any(r.status == "failed" for r in ladder.rows))
        failed = [row for row in first.rows if row.status == "failed"]
        assert [row.bot for row in failed] == ["crash"] and failed[0].rank == 0
        assert {row.bot for row in first.rows} == {"ann", "bob", "cat", "crash", "dan"}

        folder = tmp_path / "bob"
        (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version 2\n")
        second = await submit(hosted, "bob", folder, token=tokens["bob"])
        broken = bot_folder(tmp_path / "cat2", BROKEN)
        refused = await submit(hosted, "cat", broken, token=tokens["cat"])
        assert refused.version.build == pb.BUILD_STATE_FAILED and "exit code 1" in refused.version.build_detail
        new = f"bob@{second.bot.version}"
        later = await until(hosted, lambda ladder: rows(ladder).get(new) is not None and rows(ladder)[new].sets >= 2)
        statuses = {key: row.status for key, row in rows(later).items()}
        assert statuses[new] in ("placement", "active")
        old = [key for key in statuses if key.startswith("bob@") and key != new]
        assert len(old) == 1 and statuses[old[0]] == "retired"  # keeps its games and rating
        assert rows(later)[old[0]].sets >= rows(first)[old[0]].sets > 0
        cats = [key for key in statuses if key.startswith("cat@")]
        assert len(cats) == 1 and statuses[cats[0]] in ("placement", "active")  # the failed build never joined

        paused = await hosted.call("PauseLeague", pb.LeagueRequest(league="ladder"))
        assert paused.status == pb.LEAGUE_STATUS_PAUSED
        while hosted.contest.leagues.playing("ladder"):
            await asyncio.sleep(0.1)
        settled = await standings(hosted)
        assert settled.games == settled.sets * 2  # every set whole: two seatings of one deal at two seats
        games = hosted.contest.store.games(hosted.contest.store.league("ladder", create=False), False)
        by_set = _by_set(games)
        cut = [set_id for set_id, set_games in by_set.items() if len(set_games) < 2]
        assert len(cut) <= 2  # the pause starts no more games: a set playing (2 at once) may stop between its two
        for set_id, set_games in by_set.items():
            assert len({g.seed for g in set_games}) == 1
            owners = {"ann": "a", "dan": "a"}
            assert len({owners.get(bot, bot) for bot in set_games[0].figures.seats}) == 2  # owners apart
            if set_id not in cut:
                assert len(set_games) == 2
                assert set_games[0].figures.seats == tuple(reversed(set_games[1].figures.seats))

        request = pb.FinalizeRequest(league="ladder", top=3, max_games=12)
        finalized = await hosted.call("FinalizeLadder", request)
        assert finalized.status == pb.LEAGUE_STATUS_RUNNING and len(finalized.versions) == 3
        leaders = [row.bot for row in (await standings(hosted)).rows if row.rank][:3]
        assert sorted(finalized.versions) == sorted(leaders)
        assert list(finalized.bots) == leaders  # best first, as the leaderboard
        info = await wait_over(hosted, "ladder")
        assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
        reply = await hosted.call("GetStandings", pb.LeagueRequest(league="ladder"))
        final = reply.final
        assert final.final and sorted(row.bot for row in final.rows) == sorted(leaders)
        assert 6 <= final.games <= 12 and final.games % 6 == 0  # whole round robins: 3 pairs, 2 games a set
        assert [row.HasField("separated") for row in final.rows] == [True, True, False]
        with pytest.raises(grpc.aio.AioRpcError) as refusal:
            await hosted.call("FinalizeLadder", request)
        assert refusal.value.details() == "ladder 'ladder' is finalized already"  # it said: is finished

        bundle = tmp_path / "bundle"
        async for file in hosted.stub.ExportFinal(pb.LeagueRequest(league="ladder"), metadata=hosted.as_(ADMIN)):
            (bundle / file.path).parent.mkdir(parents=True, exist_ok=True)
            (bundle / file.path).write_bytes(file.data)
        check = verify_bundle(bundle)
        assert check.problems == [] and check.games == final.games

        events = await asyncio.wait_for(watched, 30)  # the stream ends with the ladder
        boards = [event.ladder_changed for event in events if event.WhichOneof("kind") == "ladder_changed"]
        assert len(boards) >= 8 and [b.sets for b in boards] == sorted(b.sets for b in boards)
        assert all(board.games == 2 * board.sets for board in boards)
        finished = [event.game_finished for event in events if event.WhichOneof("kind") == "game_finished"]
        assert finished and all(len(game.seats) == 2 for game in finished)

    run(tmp_path, scenario)


class Finalizing(referee_pb2_grpc.RefereeServicer):
    """A referee whose FinalizeLadder finalizes ``ladder``: cat, ann and bob, best first (bob at an address)."""

    def FinalizeLadder(self, request: pb.FinalizeRequest, context: object) -> pb.LeagueInfo:
        versions = {"ann": "a1", "cat": "c1"}
        bots = ["cat", "ann", "bob"]
        commitments = {"deal_commitment": "ab" * 32, "final_commitment": "cd" * 32}
        return pb.LeagueInfo(name=request.league, ladder=True, players=2, bots=bots, versions=versions, **commitments)


@pytest.mark.parametrize("top", [None, 3, 5])
def test_finalize_prints_the_finalists_best_first_and_what_a_top_past_them_means(top: int | None) -> None:
    """They were printed by name (ann a1, cat c1, the bot at an address left out), and a --top past the active
    bots' number was taken without a word."""
    server = grpc.server(ThreadPoolExecutor(2))
    referee_pb2_grpc.add_RefereeServicer_to_server(Finalizing(), server)  # type: ignore[no-untyped-call]
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        given = [] if top is None else ["--top", str(top)]
        args = ["referee", "finalize", "ladder", *given, "--referee", f"127.0.0.1:{port}", "--token", ADMIN]
        result = runner.invoke(app, args)
    finally:
        server.stop(0)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].endswith(f"deal commitment {'ab' * 32}, the final's deal commitment {'cd' * 32}"), lines[0]
    assert lines[1] == "finalists, best first: cat c1, ann a1, bob; follow it with: rage referee watch ladder"
    assert lines[2:] == (["--top 5: the ladder has 3 active bots; all 3 play the final"] if top == 5 else [])


def test_a_final_capped_past_a_hosted_league_is_refused_naming_the_field(tmp_path: Path) -> None:
    """A cap of 4294967295 games (the most a uint32 holds) was taken: the final's schedule is built to the cap."""

    async def scenario(hosted: Referee) -> None:
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await hosted.call("FinalizeLadder", pb.FinalizeRequest(league="ladder", max_games=2**32 - 1))
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert info.value.details() == "max_games: at most 100,000 games in a final, not 4,294,967,295"

    run(tmp_path, scenario)


def test_the_pages_list_a_ladders_games_without_a_total(tmp_path: Path) -> None:
    """The list of leagues showed a ladder's games as ``0 / 0`` (``1068 / 0`` once played): a ladder plans no
    total. A league with a schedule still shows its games of its total."""

    async def scenario(hosted: Hosted) -> None:
        await hosted.create(definition())
        await hosted.create(CONTEST)
        app = create_app(hosted.contest, Home(asyncio.get_running_loop()))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://pages") as client:
            page = (await client.get("/", headers={"authorization": f"Bearer {ADMIN}"})).text
        rows = dict(re.findall(r'<a href="/leagues/(\w+)/index.html">.*?</td><td>\w+</td><td>(.*?)</td>', page))
        assert rows == {"cup": "0 / 6", "ladder": "0"}

    run_with_bots(tmp_path, scenario)


def _by_set(games: list) -> dict[int, list]:  # type: ignore[type-arg]
    sets: dict[int, list] = {}  # type: ignore[type-arg]
    for game in games:
        sets.setdefault(game.set_id, []).append(game)
    return sets


def test_a_contest_file_with_a_schedule_is_refused_naming_the_key(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        for key in ("games = 4", "bots = []", "games_per_table = 2"):
            with pytest.raises(grpc.aio.AioRpcError) as info:
                text = CONTEST.replace("players = 2", f"players = 2\n{key}")
                await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=text))
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            name = key.split(" ")[0]
            assert info.value.details() == f"definition.{name}: not in a contest file: a ladder makes its own tables"
        with pytest.raises(grpc.aio.AioRpcError) as info:
            bad = CONTEST.replace("concurrency = 2", "concurrency = 0")
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=bad))
        assert info.value.details().startswith("definition.ladder.concurrency: ")

    run(tmp_path, scenario)


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("duplicate = false", "a ladder plays duplicate sets, and so does its final"),
        ("concurrency = 4", "the sets a ladder plays at once are [ladder] concurrency"),
        ("keep_going = true", "a bot that cannot start is forfeited for the rest of its set, and the ladder plays on"),
        ("exclude = []", "a ladder makes its own tables"),
        ("schedule = 1", "a ladder makes its own tables"),
        ('runner = {kind = "local"}', "where games are played is the referee's"),
    ],
)
def test_a_league_key_a_ladder_does_not_use_is_refused_naming_it(key: str, why: str) -> None:
    """``duplicate = false`` and a top-level ``concurrency`` were taken and did nothing on the ladder (its sets
    duplicate, its concurrency the [ladder] one), and made its final not duplicate, or play that many at once."""
    text = CONTEST.replace("players = 2", f"players = 2\n{key}")
    with pytest.raises(InvalidArgument) as info:
        read_ladder(text, "")
    assert str(info.value) == f"definition.{key.split(' ')[0]}: not in a contest file: {why}"


def test_every_league_key_is_a_contest_files_or_refused_in_one() -> None:
    """A league file's key is either one a ladder uses or refused in a contest file: none is taken and ignored."""
    used = {"name", "ruleset", "players", "seed", "time", "sandbox", "isolation", "forfeits"}
    assert set(LeagueConfig.model_fields) == used | set(NOT_IN_A_CONTEST) | set(IGNORED_KEYS)


def test_a_ladder_stored_with_a_key_now_refused_still_reads_and_its_final_is_duplicate() -> None:
    text = CONTEST.replace("players = 2", "players = 2\nduplicate = false\nconcurrency = 8\nkeep_going = true")
    definition = ladder_definition(text, "ladder")
    assert definition.config.duplicate and definition.settings.concurrency == 2


def test_no_league_or_ladder_takes_the_name_of_a_ladders_final(tmp_path: Path) -> None:
    league = 'name = "ladder.final"\nplayers = 2\ngames = 2\nbots = ["a", "b"]\n[ruleset]\npreset = "amigo"\n'
    ladder = CONTEST.replace('name = "ladder"', 'name = "ladder.final"')

    async def scenario(hosted: Referee) -> None:
        for bot, address in (("a", "127.0.0.1:1"), ("b", "127.0.0.1:2")):
            await hosted.call("RegisterBot", pb.RegisterBotRequest(name=bot, address=address), ENTRY)
        for text in (ladder, league):  # either would keep the ladder "ladder" from its final
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=text))
            assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
            assert info.value.details() == "name: 'ladder.final' ends with '.final', kept for the finals of ladders"
        with pytest.raises(grpc.aio.AioRpcError) as info:  # the same name but for case: taken before
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=league.replace(".final", ".FINAL")))
        assert info.value.details() == "name: 'ladder.FINAL' ends with '.final', kept for the finals of ladders"
        bom = "\ufeff" + league.replace("ladder.final", "bom")  # an editor's byte order mark, sent as it was
        assert (await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=bom))).name == "bom"
        # a league of its own has no final to export: it says so, not "finalize it first"
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=league.replace(".final", "")))
        with pytest.raises(grpc.aio.AioRpcError) as info:
            async for _ in hosted.stub.ExportFinal(pb.LeagueRequest(league="ladder"), metadata=hosted.as_(ADMIN)):
                pass
        assert info.value.details() == "league 'ladder' has a schedule: only a ladder has a final"
        # a name the same but for case was a second league, shown beside the first as its twin
        with pytest.raises(grpc.aio.AioRpcError) as info:
            twin = league.replace("ladder.final", "LADDER")
            await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=twin))
        assert info.value.code() == grpc.StatusCode.ALREADY_EXISTS
        assert info.value.details() == (
            "name: a league named 'ladder' exists already, the same name as 'LADDER' "
            "(names are compared without case or width)"
        )

    run(tmp_path, scenario)


def test_a_ladder_starts_pauses_resumes_and_cancels_as_a_league(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
        for verb, status in (
            ("StartLeague", pb.LEAGUE_STATUS_RUNNING),
            ("PauseLeague", pb.LEAGUE_STATUS_PAUSED),
            ("ResumeLeague", pb.LEAGUE_STATUS_RUNNING),
            ("CancelLeague", pb.LEAGUE_STATUS_CANCELLED),
        ):
            assert (await hosted.call(verb, pb.LeagueRequest(league="ladder"))).status == status
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await hosted.call("FinalizeLadder", pb.FinalizeRequest(league="ladder"))
        assert info.value.details() == "ladder 'ladder' is cancelled; only a ladder that has run has a final"

    run(tmp_path, scenario)


@pytest.mark.slow
def test_a_set_cut_short_is_finished_first_with_its_seats_and_deal(tmp_path: Path) -> None:
    """As after a kill -9 between a set's games: its first game stored, its second not. The run plays the
    second first, seated and dealt as the book's set says, and the table counts the set once."""

    async def scenario(hosted: Referee) -> None:
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
        for name, owner in (("ann", "a"), ("bob", "b")):
            await submit(hosted, name, bot_folder(tmp_path / name), owner)
        await hosted.call("StartLeague", pb.LeagueRequest(league="ladder"))
        await until(hosted, lambda ladder: ladder.sets >= 2)
        await hosted.call("PauseLeague", pb.LeagueRequest(league="ladder"))
        while hosted.contest.leagues.playing("ladder"):
            await asyncio.sleep(0.1)
        store, book = hosted.contest.store, hosted.contest.leagues.book
        league_id = store.league("ladder", create=False)
        cut = next(s for s in book.sets(league_id) if set(s.indices) <= store.finished(league_id))
        kept = store.record(league_id, cut.first)
        with Session(store.engine) as session:  # the second game of the set never stored
            session.execute(delete(GameRow).where(GameRow.league_id == league_id, GameRow.index == cut.first + 1))
            session.commit()
        before = await standings(hosted)
        assert before.sets == len([s for s in book.sets(league_id) if set(s.indices) <= store.finished(league_id)])
        await hosted.call("ResumeLeague", pb.LeagueRequest(league="ladder"))
        deadline = time.monotonic() + 60
        while cut.first + 1 not in store.finished(league_id):
            assert time.monotonic() < deadline
            await asyncio.sleep(0.1)
        replayed = store.games(league_id)
        pair = [game for game in replayed if game.set_id == cut.set_id]
        assert [game.index for game in pair] == [cut.first, cut.first + 1]
        assert pair[0].seed == pair[1].seed and pair[1].figures.seats == tuple(reversed(pair[0].figures.seats))
        assert store.record(league_id, cut.first) == kept
        planned = [g.seats for g in ladder_games(cut, pair[0].seed)]
        assert [game.figures.seats for game in pair] == planned
        await hosted.call("CancelLeague", pb.LeagueRequest(league="ladder"))

    run(tmp_path, scenario)


def test_a_version_a_running_ladder_plays_is_kept_and_one_it_never_played_is_deleted(tmp_path: Path) -> None:
    """Deleting the active version of a bot in a running ladder was taken; the ladder went on seating it, and it
    forfeited every set ('its version cannot be launched: ... is not built')."""

    async def scenario(hosted: Referee) -> None:
        first = await submit(hosted, "ann", bot_folder(tmp_path / "ann"), "a")
        (tmp_path / "ann" / "bot.py").write_text((tmp_path / "ann" / "bot.py").read_text() + "\n# two\n")
        second = await submit(hosted, "ann", tmp_path / "ann", token=first.token)
        await submit(hosted, "bob", bot_folder(tmp_path / "bob"), "b")
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
        await hosted.call("StartLeague", pb.LeagueRequest(league="ladder"))
        await until(hosted, lambda ladder: ladder.sets >= 1)

        def deleting(reply: pb.SubmitBotReply) -> pb.DeleteVersionRequest:
            return pb.DeleteVersionRequest(name="ann", version=reply.version.version)

        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("DeleteVersion", deleting(second), first.token)
        assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert refused.value.details() == (
            f"version: {second.bot.version} of bot 'ann' is played by league 'ladder': it is kept while it plays there"
        )
        kept = await hosted.call("DeleteVersion", deleting(first), first.token)  # it never joined: the newest did
        assert [version.version for version in kept.versions] == [second.version.version]
        await hosted.call("CancelLeague", pb.LeagueRequest(league="ladder"))

    run(tmp_path, scenario)
