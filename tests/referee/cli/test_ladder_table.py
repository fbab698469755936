"""``rage referee standings`` of a ladder: the leaderboard's columns in each format, the final's after it, and
JSON as one document."""

from __future__ import annotations

import csv
import io
import json

import pytest
from rage_referee.cli.common import Format
from rage_referee.cli.ladder_table import render_ladder
from rage_sdk.pb import referee_pb2 as pb

COLUMNS = ["rank", "bot", "owner", "version", "mu", "sigma", "rating", "sets", "games", "last_game", "status"]


def board() -> pb.Ladder:
    rows = [
        pb.LadderRow(
            rank=1,
            bot="ann",
            owner="north",
            version="a" * 16,
            mu=30.5,
            sigma=2.25,
            rating=23.75,
            sets=7,
            games=14,
            last_game_unix=1_767_225_600,
            status="active",
        ),
        pb.LadderRow(
            bot="crash",
            owner="west",
            version="c" * 16,
            mu=20.0,
            sigma=7.0,
            rating=-1.0,
            sets=2,
            games=4,
            status="failed",
        ),
    ]
    return pb.Ladder(league="open", sets=9, games=18, rows=rows)


def final() -> pb.Ladder:
    first = pb.LadderRow(
        rank=1, bot="ann", version="a" * 16, sets=4, games=8, status="final", separated=True, difference=3.5
    )
    second = pb.LadderRow(rank=2, bot="bob", version="b" * 16, sets=4, games=8, status="final")
    return pb.Ladder(league="open", sets=4, games=8, rows=[first, second], final=True)


def test_json_is_one_document_with_the_final_beside_the_leaderboard(capsys: pytest.CaptureFixture[str]) -> None:
    render_ladder(board(), Format.JSON, final())
    document = json.loads(capsys.readouterr().out)
    assert list(document["rows"][0]) == COLUMNS
    assert document["rows"][0]["last_game"] == "2026-01-01 00:00:00" and document["rows"][1]["rank"] is None
    assert document["final"]["rows"][0]["separated"] is True and "separated" not in document["final"]["rows"][1]


def test_csv_and_markdown_list_every_column(capsys: pytest.CaptureFixture[str]) -> None:
    render_ladder(board(), Format.CSV)
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == COLUMNS and rows[2][COLUMNS.index("status")] == "failed" and rows[2][0] == ""
    render_ladder(board(), Format.MARKDOWN, final())
    text = capsys.readouterr().out
    assert "| rank | bot | owner |" in text and "**open: 9 sets, 18 games**" in text
    assert (
        "**open: final, 4 sets, 8 games (in the final's order; ladder_*: the version's figures on the ladder)**" in text
    )
    assert "| rank | bot | owner | version | sets | games | ladder\\_mu | ladder\\_sigma | ladder\\_rating |" in text
    assert "| yes |" in text  # the final's rows: the ladder's mu, sigma and rating were shown as if the final's
    # names and words left, numbers right: rank, bot, owner, version, mu, sigma, rating, sets, games, last game, status
    assert text.splitlines()[3] == "|---:|---|---|---|---:|---:|---:|---:|---:|---|---|"
