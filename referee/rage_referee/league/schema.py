"""The store's tables on disk: created when missing, and those of an earlier release brought up to date.

Each change runs under one lock (PostgreSQL's advisory lock, SQLite's write lock) and looks again
once it holds it, so two processes opening one database at once make it once. Opening a database
that is up to date takes no lock, so a read-only one opens too.

The changes since the released schema, each done in place with the games kept:

- ``games.decisions`` is dropped: the record cannot give it and no reader of stored games needs it
  (the other figures beside the record are its index, :func:`~.store.index_row`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import MetaData, inspect, text
from sqlalchemy.engine import Connection, Engine

SCHEMA_LOCK = 0x7261676573746F72
"""The PostgreSQL advisory lock held while tables are created or changed ("ragestor")."""

DROPPED = {"games": ("decisions",)}
"""Columns of the released schema the store no longer keeps, by table."""


@contextmanager
def schema_change(engine: Engine) -> Iterator[Connection]:
    """A transaction holding the schema lock to its commit."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
        elif connection.dialect.name == "sqlite":
            connection.exec_driver_sql("BEGIN IMMEDIATE")  # the database's write lock, before looking
        yield connection


def has_table(engine: Engine, name: str) -> bool:
    """Whether the database holds a table ``name``."""
    with engine.connect() as connection:
        return inspect(connection).has_table(name)


def create_tables(engine: Engine, metadata: MetaData) -> None:
    """Create the tables of ``metadata`` the database lacks."""
    with engine.connect() as connection:
        if set(inspect(connection).get_table_names()) >= set(metadata.tables):
            return
    with schema_change(engine) as connection:
        metadata.create_all(connection)


def upgrade(engine: Engine) -> None:
    """Bring tables made by an earlier release up to date (:data:`DROPPED`); nothing when they are."""
    with engine.connect() as connection:
        if not _stale(connection):
            return
    with schema_change(engine) as connection:
        for table, columns in _stale(connection).items():
            for column in columns:
                connection.execute(text(f'ALTER TABLE "{table}" DROP COLUMN "{column}"'))


def _stale(connection: Connection) -> dict[str, list[str]]:
    """The columns of :data:`DROPPED` the database still has, by table."""
    inspector = inspect(connection)
    tables = set(inspector.get_table_names())
    stale = {}
    for table, dropped in DROPPED.items():
        if table in tables:
            present = {column["name"] for column in inspector.get_columns(table)}
            if kept := [column for column in dropped if column in present]:
                stale[table] = kept
    return stale
