"""Revisions apply plain SQL files from sql/; this runs one whole file on the migration connection,
and the repeatable step (sql/functions/, app/db/repeatable.py) on it."""

from __future__ import annotations

from alembic import op
from sqlalchemy.util import await_only

from app.db import repeatable
from app.db.bundle import sql_dir


def _driver_connection(connection=None):
    # SQLAlchemy's asyncpg adapter prepares each statement, and a prepared statement holds one
    # command; the driver connection's execute() without arguments takes a whole script.
    return (connection or op.get_bind()).connection.driver_connection


def apply_sql_file(name: str) -> None:
    """Execute sql/<name> as one script (functions with $$ bodies included)."""
    sql = (sql_dir() / name).read_text(encoding="utf-8")
    await_only(_driver_connection().execute(sql))


def apply_function_files(connection=None, *, force: bool = False, check_bodies: bool = True) -> bool:
    """Apply sql/functions/ when a checksum changed (always with `force`); True when applied.
    `check_bodies=False`: unchecked and not recorded, for a revision older than head."""
    return await_only(repeatable.apply_function_files(_driver_connection(connection), force=force,
                                                      check_bodies=check_bodies))


def drop_function_files() -> None:
    """Drop every function sql/functions/ declares, with their triggers and the checksums."""
    await_only(repeatable.drop_function_files(_driver_connection()))
