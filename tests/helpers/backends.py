"""The databases the store is tested on: SQLite always, a real PostgreSQL server when one is given.

A test that takes ``database_url`` runs once per backend, each time on a fresh, empty database.
The PostgreSQL server is the one at ``$RAGE_TEST_POSTGRES_URL`` (``.ci/services/postgres.sh``
starts one and sets it); each test gets its own database there, dropped afterwards.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from tests.conftest import require

BACKENDS = ("sqlite", "postgresql")
POSTGRES_ENV = "RAGE_TEST_POSTGRES_URL"
HOW = (
    f"run `make test-postgres`, or set {POSTGRES_ENV} to a postgresql+psycopg:// URL "
    "of a server that lets you create databases"
)


@contextlib.contextmanager
def fresh_database(backend: str, folder: Path) -> Iterator[str]:
    """The URL of a new, empty database on ``backend`` (an SQLite file in ``folder``), removed afterwards."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / 'league.sqlite'}"
        return
    server = os.environ.get(POSTGRES_ENV, "")
    require(bool(server), "a PostgreSQL server", HOW)
    name = f"rage_{secrets.token_hex(6)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database on each backend in turn."""
    with fresh_database(request.param, tmp_path) as url:
        yield url
