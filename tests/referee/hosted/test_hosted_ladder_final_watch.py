"""A ladder's final on the ladder's own stream (``Watch``), called in process on loopback: an entrant watching
from before ``finalize`` to the end reads each of the final's games once (marked ``final``, counted apart from
the ladder's) and its standings after each of its whole sets, the last of them the final's standings
``GetStandings`` gives, each adjacent pair marked separated or not; a watch begun afterwards with history
reads the final's games and standings first."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import grpc
import pytest
from rage_sdk.pb import referee_pb2 as pb

from tests.referee.hosted.test_hosted_ladder import CONTEST, submit, until, watch
from tests.referee.hosted.test_hosted_submissions import ENTRY, Referee, bot_folder, run
from tests.referee.hosted.test_hosted_submitted_league import wait_over


def final_games(events: list[pb.LeagueEvent]) -> list[pb.GameFinished]:
    return [e.game_finished for e in events if e.WhichOneof("kind") == "game_finished" and e.game_finished.final]


def finals(events: list[pb.LeagueEvent]) -> list[pb.Ladder]:
    return [event.final_changed for event in events if event.WhichOneof("kind") == "final_changed"]


@pytest.mark.slow
def test_a_watch_of_a_ladder_streams_its_finals_games_and_standings(tmp_path: Path) -> None:
    async def scenario(hosted: Referee) -> None:
        await hosted.call("CreateLeague", pb.CreateLeagueRequest(definition=CONTEST))
        for name, owner in (("ann", "a"), ("bob", "b"), ("cat", "c")):
            await submit(hosted, name, bot_folder(tmp_path / name), owner)
        await hosted.call("StartLeague", pb.LeagueRequest(league="ladder"))
        watched = asyncio.create_task(watch(hosted))
        await until(hosted, lambda ladder: ladder.sets >= 2)
        ladder_games = hosted.contest.store.count(hosted.contest.registry.league("ladder").league_id)
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("GetRecord", pb.GetRecordRequest(league="ladder", game=0, final=True), ENTRY)
        assert refused.value.code() is grpc.StatusCode.FAILED_PRECONDITION
        assert refused.value.details() == "final: ladder 'ladder' has no final yet (rage referee finalize makes it)"
        finalized = await hosted.call("FinalizeLadder", pb.FinalizeRequest(league="ladder", top=3, max_games=12))
        commitment = finalized.final_commitment  # published before the final's first game; it was never
        assert re.fullmatch("[0-9a-f]{64}", commitment) and commitment != finalized.deal_commitment
        info = await wait_over(hosted, "ladder")
        assert info.final_commitment == commitment
        assert info.status == pb.LEAGUE_STATUS_FINISHED, info.reason
        final = (await hosted.call("GetStandings", pb.LeagueRequest(league="ladder"), ENTRY)).final
        assert final.games in (6, 12)

        events = await asyncio.wait_for(watched, 60)
        games = final_games(events)
        assert sorted(game.game for game in games) == list(range(final.games))  # each once, the final's numbers
        assert [game.games_done for game in games] == list(range(1, final.games + 1))
        assert all(game.games_total == 12 and len(game.seats) == 2 for game in games)
        ladder_only = [e for e in events if e.WhichOneof("kind") == "game_finished" and not e.game_finished.final]
        assert len(ladder_only) >= ladder_games - 2  # the ladder's own games stay unmarked
        standings = finals(events)
        assert [board.sets for board in standings] == list(range(1, final.sets + 1))  # after each whole set
        assert all(board.final for board in standings)
        assert standings[-1] == final
        assert final.deal_commitment == commitment
        assert [row.HasField("separated") for row in final.rows] == [True, True, False]
        kinds = [e.WhichOneof("kind") for e in events]
        assert kinds.index("final_changed") > kinds.index("game_finished")

        for game in games:  # each of the final's games has its record, read as an entrant reads it
            request = pb.GetRecordRequest(league="ladder", game=game.game, final=True)
            record = json.loads((await hosted.call("GetRecord", request, ENTRY)).record)
            assert record["players"] == list(game.seats)
            assert record["result"]["totals"] == list(game.totals)
            assert record["meta"]["deal_commitment"] == commitment
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await hosted.call("GetRecord", pb.GetRecordRequest(league="ladder", game=12, final=True), ENTRY)
        assert refused.value.details() == "game: the final of ladder 'ladder' has games 0-11"

        stream = hosted.stub.Watch(pb.WatchRequest(league="ladder", history=True), metadata=hosted.as_(ENTRY))
        later = [event async for event in stream]
        assert sorted(game.game for game in final_games(later)) == list(range(final.games))
        assert finals(later) == [final]

    run(tmp_path, scenario)


def test_rage_referee_watch_prints_the_finals_games_and_standings(capsys: pytest.CaptureFixture[str]) -> None:
    from rage_referee.cli.referee import _show

    game = pb.GameFinished(game=3, seats=["ann", "bob"], totals=[12, -4], places=[1, 2], games_done=4, final=True)
    rows = [
        pb.LadderRow(rank=1, bot="ann", separated=True, difference=3.5),
        pb.LadderRow(rank=2, bot="bob", separated=False, difference=0.25),
        pb.LadderRow(rank=3, bot="cat"),
    ]
    _show(
        pb.LeagueEvent(
            league="ladder", status_changed=pb.StatusChanged(status=pb.LEAGUE_STATUS_FINISHED, games_done=36)
        )
    )
    _show(pb.LeagueEvent(league="ladder", game_finished=game))
    _show(pb.LeagueEvent(league="ladder", final_changed=pb.Ladder(sets=2, games=4, rows=rows, final=True)))
    status, *lines = capsys.readouterr().out.splitlines()
    assert status == "ladder: finished, 36 games"  # a ladder has no total of games (it read 36/0 games)
    assert lines[0].startswith("final game 3: ann 12 (1st), bob -4 (2nd)")
    assert lines[1] == (
        "  final after 2 sets (4 games): 1. ann (separated, +3.50), 2. bob (not separated, +0.25), 3. cat"
    )
